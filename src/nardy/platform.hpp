// Compiler and CPU portability. Every construct of the core that is not standard C++20 (GCC
// and Clang attributes, target_clones, inline asm, SSE2 intrinsics) is spelled through these
// macros, each with an MSVC or plain-C++ meaning, so the sources build with GCC, Clang and
// MSVC alike.
#pragma once

#include <cstdint>
#include <type_traits>
#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
#endif

// NARDY_HOT: a function forced inline. NARDY_OCC: the same for a member function defined in
// its class (already inline). NARDY_LAMBDA: the same for a lambda, written after its
// parameter list. Hot helpers of the move search are forced inline because, left to itself,
// the compiler's inlining budget is spent differently whenever an unrelated variant changes in
// the same unit (and a lambda called from two places of a step function is left out of line).
// Sanitizer builds (and NARDY_NO_FORCE_INLINE) leave inlining to the compiler: the forced
// inlining multiplies the instrumented code (registry.cpp took about 13 minutes to compile with
// ASan + UBSan instead of 3), and what is inlined does not change what the code does.
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define NARDY_SANITIZED_BUILD 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define NARDY_SANITIZED_BUILD 1
#endif
#if defined(NARDY_NO_FORCE_INLINE) || defined(NARDY_SANITIZED_BUILD)
#define NARDY_HOT inline
#define NARDY_OCC
#define NARDY_LAMBDA
#elif defined(__GNUC__) || defined(__clang__)
#define NARDY_HOT [[gnu::always_inline]] inline
#define NARDY_OCC [[gnu::always_inline]]
#define NARDY_LAMBDA __attribute__((always_inline))
#elif defined(_MSC_VER)
#define NARDY_HOT __forceinline
#define NARDY_OCC __forceinline
#define NARDY_LAMBDA
#else
#define NARDY_HOT inline
#define NARDY_OCC
#define NARDY_LAMBDA
#endif

// NARDY_POPCNT_CLONES: hot functions that count bits are built twice on x86-64 glibc systems,
// for CPUs with the popcnt instruction and without, and the loader picks one (an ifunc) once:
// portable wheels then run at -mpopcnt speed on any CPU of the last fifteen years and still
// run on the rest. GCC has target_clones since 6; clang (14, as checked) refuses them on
// templates, which these functions are, and musl has no ifunc, MSVC no clones: there the one
// portable build is used.
#if defined(__clang__)
#define NARDY_HAS_TARGET_CLONES 0
#elif defined(__GNUC__)
#define NARDY_HAS_TARGET_CLONES (__GNUC__ >= 6)
#else
#define NARDY_HAS_TARGET_CLONES 0
#endif
#if defined(__x86_64__) && defined(__GLIBC__) && !defined(__POPCNT__) && NARDY_HAS_TARGET_CLONES
#define NARDY_POPCNT_CLONES [[gnu::target_clones("popcnt", "default")]]
#else
#define NARDY_POPCNT_CLONES
#endif

// NARDY_SSE2: 1 where SSE2 intrinsics may be used. GCC and Clang say so with __SSE2__; MSVC
// does not define it, but every x64 target has SSE2.
#if defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2)
#define NARDY_SSE2 1
#include <emmintrin.h>
#else
#define NARDY_SSE2 0
#endif

namespace nardy {

// Hides a value from the optimizer, so that it cannot turn the arithmetic done on it into a
// branch (GCC otherwise branches on a select whose condition is as good as random). No code
// is emitted; where inline asm does not exist this does nothing.
template <class T>
constexpr void opaque(T& value) noexcept {
#if defined(__GNUC__) || defined(__clang__)
  if (!std::is_constant_evaluated()) asm("" : "+r"(value));
#else
  (void)value;
#endif
}

// The high 64 bits of a 64 x 64-bit product: a multiply-shift that maps a hash onto any
// range, not only powers of two. __int128 is a GCC/Clang extension (hence __extension__, which
// keeps -Wpedantic quiet), MSVC x64 has an intrinsic, and elsewhere four 32-bit products do.
inline uint64_t mul_high(uint64_t a, uint64_t b) noexcept {
#if defined(__SIZEOF_INT128__)
  __extension__ using u128 = unsigned __int128;
  return static_cast<uint64_t>((static_cast<u128>(a) * b) >> 64);
#elif defined(_MSC_VER) && defined(_M_X64)
  return __umulh(a, b);
#else
  const uint64_t a_lo = a & 0xFFFFFFFFu, a_hi = a >> 32, b_lo = b & 0xFFFFFFFFu, b_hi = b >> 32;
  const uint64_t lo_lo = a_lo * b_lo, hi_lo = a_hi * b_lo, lo_hi = a_lo * b_hi;
  const uint64_t cross = (lo_lo >> 32) + (hi_lo & 0xFFFFFFFFu) + lo_hi;
  return a_hi * b_hi + (hi_lo >> 32) + (cross >> 32);
#endif
}

// A hint to fetch the cache line at `p` soon; nothing where the compiler has no such builtin.
inline void prefetch(const void* p) noexcept {
#if defined(__GNUC__) || defined(__clang__)
  __builtin_prefetch(p);
#elif defined(_MSC_VER) && NARDY_SSE2
  _mm_prefetch(static_cast<const char*>(p), _MM_HINT_T0);
#else
  (void)p;
#endif
}

}  // namespace nardy
