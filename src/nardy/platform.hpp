// Compiler and CPU portability. Every construct of the core that is not standard C++20 (GCC
// and Clang attributes, target_clones, inline asm, SSE2 intrinsics) is spelled through these
// macros, each with an MSVC or plain-C++ meaning, so the sources build with GCC, Clang and
// MSVC alike.
#pragma once

#include <type_traits>

// NARDY_HOT: a function forced inline. NARDY_OCC: the same for a member function defined in
// its class (already inline). NARDY_LAMBDA: the same for a lambda, written after its
// parameter list. Hot helpers of the move search are forced inline because, left to itself,
// the compiler's inlining budget is spent differently whenever an unrelated variant changes in
// the same unit (and a lambda called from two places of a step function is left out of line).
#if defined(__GNUC__) || defined(__clang__)
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

}  // namespace nardy
