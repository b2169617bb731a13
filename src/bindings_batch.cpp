// Batch entry points of nardy._core for engines and bots: numpy in, numpy out, the work in
// C++ with the GIL released. Registered by register_batch() from src/bindings.cpp.
//
// Thread safety: nothing here touches the Engine object passed in except to read its variant
// and rules and to parse rows (a const request that reads the rules alone). Every call builds its own Engine per worker thread (or reuses one cached per OS
// thread), so any number of Python threads may call these functions at once.
//
// Array layouts (python/nardy/batch.py documents them for users):
//   boards   (N, 2, 26) int8, C-contiguous: [side 0 = mover, side 1 = opponent], each side in
//            its own coordinates (docs/coordinates.md), Shlem prisoners as -1
//   dice     (N, 2) int8, values 1..6
//   results  (M, 2, 26) int8: afterstates from the view of the player who moved (unswapped),
//            row offsets (N + 1,) int64 (CSR); an empty range = the roll passes
//   steps    (M, 4, 3) int8: (from, to, hit) per die played; from == -1 marks an unused step
//   features (M, F) float32
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <atomic>
#include <barrier>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "nardy/platform.hpp"

#include "interrupt.hpp"
#include "bindings_errors.hpp"
#include "nardy/engine.hpp"
#include "nardy/features.hpp"
#include "nardy/registry.hpp"
#include "nardy/rollout.hpp"

namespace py = pybind11;
using namespace nardy;

namespace {

using nardy_py::raise_error;

// One Engine per OS thread and rule set, for calls that run on the calling thread. The rule
// set is matched on the object representation of Rules (copied with memcpy): equal bytes mean
// equal fields, whatever fields Rules grows; a mismatch in padding only costs a new Engine.
Engine& local_engine(Variant v, const Rules& r) {
  struct Entry {
    unsigned char rules[sizeof(Rules)];
    std::unique_ptr<Engine> engine;
  };
  thread_local std::vector<Entry> cache;
  unsigned char bytes[sizeof(Rules)];
  std::memcpy(bytes, &r, sizeof(Rules));
  for (auto& e : cache)
    if (e.engine->variant() == v && std::memcmp(e.rules, bytes, sizeof(Rules)) == 0)
      return *e.engine;
  if (cache.size() >= 8) cache.erase(cache.begin());
  Entry entry;
  std::memcpy(entry.rules, bytes, sizeof(Rules));
  entry.engine = std::make_unique<Engine>(v, r);
  cache.push_back(std::move(entry));
  return *cache.back().engine;
}

// Big output blocks that numpy has freed, kept for the next call. A bot calls the batch
// functions in a loop with outputs of about the same size, and the kernel zeroes every fresh
// page on first touch (a quarter of the time of batch.afterstates on the shared set). At most
// kMaxBlocks blocks and kMaxBytes in all are kept; the rest is freed as usual.
class BlockCache {
 public:
  static constexpr size_t kMaxBlocks = 2;
  static constexpr size_t kMaxBytes = size_t{256} << 20;

  // A kept block of at least `bytes` (the smallest that fits), or nullptr; `got` its size.
  void* take(size_t bytes, size_t& got) {
    std::lock_guard<std::mutex> lock(mutex_);
    size_t best = kept_.size();
    for (size_t i = 0; i < kept_.size(); ++i)
      if (kept_[i].bytes >= bytes && (best == kept_.size() || kept_[i].bytes < kept_[best].bytes))
        best = i;
    if (best == kept_.size()) return nullptr;
    const Block blk = kept_[best];
    kept_.erase(kept_.begin() + static_cast<std::ptrdiff_t>(best));
    got = blk.bytes;
    return blk.p;
  }
  // A block handed to numpy: its size is remembered for give().
  void lend(void* p, size_t bytes) {
    std::lock_guard<std::mutex> lock(mutex_);
    lent_.push_back(Block{p, bytes});
  }
  // numpy freed a block: keep it if there is room, else free it.
  void give(void* p) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      for (size_t i = 0; i < lent_.size(); ++i) {
        if (lent_[i].p != p) continue;
        const Block blk = lent_[i];
        lent_[i] = lent_.back();
        lent_.pop_back();
        size_t total = blk.bytes;
        for (const Block& k : kept_) total += k.bytes;
        if (kept_.size() < kMaxBlocks && total <= kMaxBytes) {
          kept_.push_back(blk);
          return;
        }
        break;
      }
    }
    std::free(p);
  }

 private:
  struct Block {
    void* p;
    size_t bytes;
  };
  std::mutex mutex_;
  std::vector<Block> kept_;
  std::vector<Block> lent_;
};

BlockCache& block_cache() {
  static BlockCache* cache = new BlockCache();  // never destroyed: arrays may outlive exit
  return *cache;
}

// A malloc-backed growable array whose storage can be handed to numpy without a copy.
template <class T>
struct Buffer {
  T* data = nullptr;
  size_t size = 0;
  size_t cap = 0;
  bool big = false;  // allocated as a 2 MiB-aligned block (may go back to the block cache)
  Buffer() = default;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  Buffer(Buffer&& o) noexcept : data(o.data), size(o.size), cap(o.cap), big(o.big) {
    o.data = nullptr;
    o.size = o.cap = 0;
  }
  Buffer& operator=(Buffer&& o) noexcept {
    if (this != &o) {
      std::free(data);
      data = o.data;
      size = o.size;
      cap = o.cap;
      big = o.big;
      o.data = nullptr;
      o.size = o.cap = 0;
    }
    return *this;
  }
  ~Buffer() { std::free(data); }
  void reserve(size_t n) {
    if (n <= cap) return;
    size_t c = std::max(n, cap * 2);
    size_t bytes = std::max<size_t>(c, 1) * sizeof(T);
    void* p = nullptr;
#if defined(__linux__)
    // Big outputs: 2 MiB-aligned and marked for transparent huge pages, so that filling tens
    // of megabytes of fresh memory costs a few page faults instead of thousands; better still,
    // a block an earlier output left behind.
    constexpr size_t kHuge = size_t{1} << 21;
    if (bytes >= 2 * kHuge) {
      bytes = (bytes + kHuge - 1) & ~(kHuge - 1);
      size_t got = 0;
      p = block_cache().take(bytes, got);
      if (p) {
        bytes = got;
      } else {
        p = std::aligned_alloc(kHuge, bytes);
        if (!p) throw std::bad_alloc();
        madvise(p, bytes, MADV_HUGEPAGE);
      }
      c = bytes / sizeof(T);
      if (size) std::memcpy(p, data, size * sizeof(T));
      std::free(data);
      big = true;
    }
#endif
    if (!p) {
      p = std::realloc(data, bytes);
      if (!p) throw std::bad_alloc();
      big = false;
    }
    data = static_cast<T*>(p);
    cap = c;
  }
  T* grow(size_t n) {
    reserve(size + n);
    T* p = data + size;
    size += n;
    return p;
  }
  // A numpy array owning the storage.
  py::array to_numpy(std::vector<py::ssize_t> shape) {
    if (!data) reserve(1);
    T* p = data;
    const bool recyclable = big;
    if (recyclable) block_cache().lend(p, cap * sizeof(T));
    data = nullptr;
    size = cap = 0;
    big = false;
    py::capsule owner(p, recyclable ? [](void* q) { block_cache().give(q); }
                                    : [](void* q) { std::free(q); });
    return py::array_t<T>(shape, p, owner);
  }
};

Position key_position(py::handle key) {
  if (!PyBytes_Check(key.ptr()) || PyBytes_GET_SIZE(key.ptr()) != 32)
    raise_error("InvalidPositionError", "a position key is 32 bytes (nardy.Position.key)");
  uint64_t w[4];
  std::memcpy(w, PyBytes_AS_STRING(key.ptr()), 32);
  Position p;
  p.us.w[0] = w[0];
  p.us.w[1] = w[1];
  p.them.w[0] = w[2];
  p.them.w[1] = w[3];
  return p;
}

py::bytes position_key(const Position& p) {
  const uint64_t w[4] = {p.us.w[0], p.us.w[1], p.them.w[0], p.them.w[1]};
  return py::bytes(reinterpret_cast<const char*>(w), 32);
}

// The board array: (N, 2, 26) int8, C-contiguous.
const int8_t* boards_of(const py::array& a, size_t& n, const char* what = "positions") {
  if (a.dtype().kind() != 'i' || a.itemsize() != 1)
    raise_error("InvalidPositionError", std::string(what) + " must be an int8 array, got dtype " +
                                            std::string(py::str(a.dtype())));
  if (a.ndim() != 3 || a.shape(1) != 2 || a.shape(2) != kSlots)
    raise_error("InvalidPositionError",
                std::string(what) + " must have shape (N, 2, 26), got " +
                    std::string(py::str(py::tuple(py::cast(std::vector<py::ssize_t>(
                        a.shape(), a.shape() + a.ndim()))))));
  if (!(a.flags() & py::array::c_style))
    raise_error("InvalidPositionError", std::string(what) + " must be C-contiguous");
  n = static_cast<size_t>(a.shape(0));
  return static_cast<const int8_t*>(a.data());
}

const int8_t* dice_of(const py::array& a, size_t n) {
  if (a.dtype().kind() != 'i' || a.itemsize() != 1 || a.ndim() != 2 || a.shape(1) != 2 ||
      static_cast<size_t>(a.shape(0)) != n || !(a.flags() & py::array::c_style))
    raise_error("InvalidDiceError", "dice must be a C-contiguous (N, 2) int8 array with N = " +
                                        std::to_string(n) + " (one roll per position)");
  return static_cast<const int8_t*>(a.data());
}

Encoding encoding_of(const std::string& kind) {
  if (kind == "tdgammon") return Encoding::TDGammon;
  if (kind == "gnubg") return Encoding::Gnubg;
  if (kind == "long") return Encoding::Long;
  if (kind == "shlem") return Encoding::Shlem;
  if (kind == "plakoto") return Encoding::Plakoto;
  raise_error("Error",
              "unknown encoding " + kind + "; known: tdgammon, gnubg, long, shlem, plakoto");
}

void raise_parse_error(const std::string& err) {
  if (!err.empty() && err[0] == '#') raise_error("InvalidDiceError", err.substr(1));
  raise_error("InvalidPositionError", err);
}

struct AfterPart {
  Buffer<uint8_t> keys;  // 32 bytes a result (Position as it is in memory: Position.key)
  Buffer<int8_t> rows;
  Buffer<int8_t> steps;
  Buffer<float> feats;
  AfterPart() = default;
  AfterPart(AfterPart&&) noexcept = default;
  AfterPart& operator=(AfterPart&&) noexcept = default;
};

// Orders the cache-bypassing stores of write_moves() before whatever the thread does next
// (another thread or numpy reads the output).
void store_fence() noexcept {
#if NARDY_SSE2
  _mm_sfence();
#endif
}

// Writes m moves as rows (if `rows`), steps (if `steps`) and features (if `enc`).
void write_moves(const Move* moves, size_t m, SpareBits spare, int8_t* rows, int8_t* steps,
                 const Encoding* enc, float* feats, uint8_t* keys = nullptr) {
  const size_t width = enc ? static_cast<size_t>(encoding_width(*enc)) : 0;
  int8_t tmp[kRowBytes];
  if (keys && !rows && !steps && !enc) {  // results only: the positions as they are
#if NARDY_SSE2
    // Stores that bypass the cache: the output (tens of MB) is not read again here, and
    // ordinary stores would first read every line of it from memory.
    if ((reinterpret_cast<uintptr_t>(keys) & 15) == 0) {
      for (size_t k = 0; k < m; ++k) {
        const __m128i* src = reinterpret_cast<const __m128i*>(&moves[k].result);
        __m128i* dst = reinterpret_cast<__m128i*>(keys + 32 * k);
        _mm_stream_si128(dst, _mm_loadu_si128(src));
        _mm_stream_si128(dst + 1, _mm_loadu_si128(src + 1));
      }
      return;
    }
#endif
    for (size_t k = 0; k < m; ++k) std::memcpy(keys + 32 * k, &moves[k].result, 32);
    return;
  }
  for (size_t k = 0; k < m; ++k) {
    const Move& mv = moves[k];
    if (keys) std::memcpy(keys + 32 * k, &mv.result, 32);
    int8_t* row = rows ? rows + k * kRowBytes : tmp;
    if (rows || enc) unpack_row(mv.result, row, spare);
    if (enc) encode_row(*enc, row, 1, feats + k * width);
    if (steps) {
      int8_t* st = steps + k * kMaxSteps * 3;
      for (int j = 0; j < kMaxSteps; ++j) {
        if (j < mv.n_steps) {
          st[3 * j] = mv.steps[j].from;
          st[3 * j + 1] = mv.steps[j].to;
          st[3 * j + 2] = static_cast<int8_t>(mv.steps[j].hit);
        } else {
          st[3 * j] = -1;
          st[3 * j + 1] = -1;
          st[3 * j + 2] = 0;
        }
      }
    }
  }
}

// Room in `part` for the outputs of `rows` rows at 24 results a row, enough for most calls
// at once (a buffer grown as it fills copies what it holds each time). `width`: features a
// result (0: none).
void reserve_outputs(AfterPart& part, size_t rows, bool with_keys, bool with_rows,
                     bool with_steps, size_t width) {
  const size_t expect = rows * 24;
  if (with_keys) part.keys.reserve(expect * 32);
  if (with_rows) part.rows.reserve(expect * kRowBytes);
  if (with_steps) part.steps.reserve(expect * kMaxSteps * 3);
  if (width) part.feats.reserve(expect * width);
}

// Rows a chunk of work for `t` threads: about 32 chunks a thread, so that the threads take
// chunks of rows in turn and finish together whatever the rows cost.
size_t chunk_rows(size_t n, int t) {
  return std::clamp<size_t>(n / (static_cast<size_t>(t) * 32), 16, 1024);
}

// Afterstates of positions [begin, end): rows (and steps / features) appended to `part`,
// per-position counts written to counts[begin..end).
void afterstates_range(Engine& e, const std::vector<Position>& pos, const int8_t* dice,
                       size_t begin, size_t end, bool with_rows, bool with_steps,
                       const Encoding* enc, AfterPart& part, int64_t* counts, Cancel* cancel,
                       bool with_keys) {
  MoveList list;
  CancelPoll poll(cancel, true, 8);  // a row: microseconds, in Shlem milliseconds
  const size_t width = enc ? static_cast<size_t>(encoding_width(*enc)) : 0;
  reserve_outputs(part, end - begin, with_keys, with_rows, with_steps, width);
  for (size_t i = begin; i < end; ++i) {
    poll();
    e.generate(pos[i], dice[2 * i], dice[2 * i + 1], list);
    const size_t m = list.size();
    counts[i] = static_cast<int64_t>(m);
    write_moves(list.begin(), m, variant_entry(e.variant()).spare,
                with_rows ? part.rows.grow(m * kRowBytes) : nullptr,
                with_steps ? part.steps.grow(m * kMaxSteps * 3) : nullptr, enc,
                enc ? part.feats.grow(m * width) : nullptr,
                with_keys ? part.keys.grow(m * 32) : nullptr);
  }
  store_fence();
}

// An allocator whose big blocks are 2 MiB-aligned and marked for transparent huge pages (as
// Buffer's): a thread's collected moves can reach hundreds of MB, and filling fresh memory in
// 4 KiB pages costs a page fault each, faults that two threads take in turn.
template <class T>
struct HugePageAllocator {
  using value_type = T;
  HugePageAllocator() = default;
  template <class U>
  HugePageAllocator(const HugePageAllocator<U>&) noexcept {}
  T* allocate(size_t n) {
    size_t bytes = std::max<size_t>(n, 1) * sizeof(T);
    void* p = nullptr;
#if defined(__linux__)
    constexpr size_t kHuge = size_t{1} << 21;
    if (bytes >= 2 * kHuge) {
      bytes = (bytes + kHuge - 1) & ~(kHuge - 1);
      p = std::aligned_alloc(kHuge, bytes);
      if (p) madvise(p, bytes, MADV_HUGEPAGE);
    }
#endif
    if (!p) p = std::malloc(bytes);
    if (!p) throw std::bad_alloc();
    return static_cast<T*>(p);
  }
  void deallocate(T* p, size_t) noexcept { std::free(p); }
  template <class U>
  bool operator==(const HugePageAllocator<U>&) const noexcept {
    return true;
  }
};
using MoveVector = std::vector<Move, HugePageAllocator<Move>>;

// Storage for the moves a worker thread collects, kept between calls: a batch loop of a bot
// calls with the same sizes again and again, and fresh memory costs page faults and the
// kernel's zeroing (kernel time that grew with the thread count; with buffers of more than
// the 48 MiB once kept, two threads fell to 0.44 of one thread's rate per CPU-second). At
// most kKeptMoves moves are kept in all, at most 8 buffers.
class MoveBuffers {
 public:
  static constexpr size_t kKeptMoves = (size_t{256} << 20) / sizeof(Move);  // 256 MiB
  MoveVector take() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (free_.empty()) return {};
    MoveVector v = std::move(free_.back());
    free_.pop_back();
    kept_ -= v.capacity();
    return v;
  }
  void give(MoveVector&& v) {
    v.clear();
    std::lock_guard<std::mutex> lock(mutex_);
    if (free_.size() >= 8 || kept_ + v.capacity() > kKeptMoves) return;
    kept_ += v.capacity();
    free_.push_back(std::move(v));
  }

 private:
  std::mutex mutex_;
  std::vector<MoveVector> free_;
  size_t kept_ = 0;  // capacity of the buffers in free_
};

MoveBuffers& move_buffers() {
  static MoveBuffers* buffers = new MoveBuffers();  // never destroyed: threads may outlive exit
  return *buffers;
}

// The moves of positions [begin, end) appended to `out`, counts to counts[begin..end).
void collect_range(Engine& e, const std::vector<Position>& pos, const int8_t* dice, size_t begin,
                   size_t end, MoveList& list, MoveVector& out, int64_t* counts) {
  for (size_t i = begin; i < end; ++i) {
    e.generate(pos[i], dice[2 * i], dice[2 * i + 1], list);
    counts[i] = static_cast<int64_t>(list.size());
    out.insert(out.end(), list.begin(), list.end());
  }
}

// Rows, steps or keys (no features) on t > 1 threads. The threads take chunks of rows in turn
// and keep each chunk's moves apart; a thread that finishes a chunk writes out every finished
// chunk next in row order (one writer at a time), so the outputs grow in row order, as on one
// thread, and most moves are written while still in cache. (Collecting every move first and
// writing them after cost 1.16x the CPU on one thread: 48 bytes a move copied out to memory
// and read back.) Features keep the two-phase path below: their encoding is most of the work
// there, and it would wait for the one writer here.
void afterstates_in_order(Variant v, const Rules& rules, const std::vector<Position>& positions,
                          const int8_t* d, size_t n, int t, bool with_rows, bool with_steps,
                          bool with_keys, AfterPart& out, int64_t* counts, Cancel* cancel) {
  const size_t chunk = chunk_rows(n, t);
  const size_t n_chunks = (n + chunk - 1) / chunk;
  const SpareBits spare_slot = variant_entry(v).spare;
  std::vector<MoveVector> chunk_moves(n_chunks);
  std::unique_ptr<std::atomic<bool>[]> finished(new std::atomic<bool>[n_chunks]);
  for (size_t c = 0; c < n_chunks; ++c) finished[c].store(false, std::memory_order_relaxed);
  std::atomic<size_t> next_chunk{0};
  std::atomic<bool> failed{false}, cancelled{false};
  std::mutex writer;  // held while chunks are written out
  size_t written = 0;  // chunks written out (guarded by writer)
  std::mutex spare_mutex;
  std::vector<MoveVector> spare;  // written chunks' buffers, for the next chunks
  reserve_outputs(out, n, with_keys, with_rows, with_steps, 0);

  // Writes out the finished chunks next in order, unless another thread is doing so. A chunk
  // finished while that thread was letting go is written by the next call (at the latest the
  // caller's last one, after every thread is done).
  auto write_finished = [&] {
    for (;;) {
      std::unique_lock<std::mutex> lock(writer, std::try_to_lock);
      if (!lock.owns_lock()) return;
      size_t c = written;
      for (; c < n_chunks && finished[c].load(std::memory_order_acquire); ++c) {
        MoveVector& moves = chunk_moves[c];
        const size_t m = moves.size();
        write_moves(moves.data(), m, spare_slot,
                    with_rows ? out.rows.grow(m * kRowBytes) : nullptr,
                    with_steps ? out.steps.grow(m * kMaxSteps * 3) : nullptr, nullptr, nullptr,
                    with_keys ? out.keys.grow(m * 32) : nullptr);
        moves.clear();
        std::lock_guard<std::mutex> g(spare_mutex);
        spare.push_back(std::move(moves));
      }
      store_fence();
      written = c;
      lock.unlock();
      std::atomic_thread_fence(std::memory_order_seq_cst);
      if (c == n_chunks || !finished[c].load(std::memory_order_acquire)) return;
    }
  };
  auto work = [&](bool caller, Engine& e) {
    try {
      MoveList list;
      CancelPoll poll(cancel, caller, 1);
      for (;;) {
        if (failed) return;
        if (poll.stop()) {
          cancelled = true;
          return;
        }
        const size_t c = next_chunk.fetch_add(1);
        if (c >= n_chunks) return;
        MoveVector moves;
        {
          std::lock_guard<std::mutex> g(spare_mutex);
          if (!spare.empty()) {
            moves = std::move(spare.back());
            spare.pop_back();
          }
        }
        if (moves.capacity() == 0) moves = move_buffers().take();  // (kept from earlier calls)
        moves.reserve(chunk * 24);
        const size_t begin = c * chunk, end = std::min(n, begin + chunk);
        collect_range(e, positions, d, begin, end, list, moves, counts);
        chunk_moves[c] = std::move(moves);
        finished[c].store(true, std::memory_order_release);
        std::atomic_thread_fence(std::memory_order_seq_cst);
        write_finished();
      }
    } catch (...) {  // (bad_alloc)
      failed = true;
    }
  };
  std::vector<std::thread> pool;
  for (int k = 1; k < t; ++k)
    pool.emplace_back([&] {
      Engine e(v, rules);
      work(false, e);
    });
  work(true, local_engine(v, rules));
  for (auto& th : pool) th.join();
  // The buffers stay for the next call: fresh ones cost a page fault every 4 KiB each call.
  auto keep_buffers = [&] {
    for (MoveVector& moves : chunk_moves)
      if (moves.capacity()) move_buffers().give(std::move(moves));
    for (MoveVector& moves : spare) move_buffers().give(std::move(moves));
  };
  if (cancelled || failed) {
    keep_buffers();
    if (cancelled) throw Cancelled{};
    throw std::bad_alloc();
  }
  write_finished();  // what the threads left (every chunk is finished now)
  keep_buffers();
}

py::tuple afterstates_impl(const Engine& engine, const py::array& boards, const py::array& dice,
                           bool with_rows, bool with_steps, const std::string* kind,
                           int threads, Cancel* cancel, bool with_keys = false) {
  size_t n = 0;
  const int8_t* b = boards_of(boards, n);
  const int8_t* d = dice_of(dice, n);
  Encoding enc{};
  if (kind) enc = encoding_of(*kind);
  const Variant v = engine.variant();
  const Rules& rules = engine.rules();  // the caller's Engine outlives the call
  std::vector<Position> positions;
  std::string err;
  Buffer<int64_t> offsets;
  offsets.grow(n + 1);
  AfterPart out;
  nardy_py::run_released([&] {
    err = engine.parse_rows(b, d, n, positions);  // (const: reads the rules only)
    if (err.empty()) {
      int t = std::min<int>(resolve_threads(threads), static_cast<int>(std::max<size_t>(n / 64, 1)));
      int64_t* counts = offsets.data + 1;
      const Encoding* encoding = kind ? &enc : nullptr;
      if (t == 1) {
        afterstates_range(local_engine(v, rules), positions, d, 0, n, with_rows, with_steps,
                          encoding, out, counts, cancel, with_keys);
      } else if (!encoding) {
        afterstates_in_order(v, rules, positions, d, n, t, with_rows, with_steps, with_keys, out,
                             counts, cancel);
      } else {
        // Features (the other outputs: afterstates_in_order). Two phases: the threads take
        // chunks of rows in turn (the cost of a row varies a lot: fixed halves left one thread
        // with three times the work of the other on the shared set) and collect their moves,
        // compact, in reused buffers; then, with the offsets summed and the outputs allocated
        // once at their final sizes, each writes the rows, steps and features of its chunks
        // into place. The outputs are written once.
        struct Chunk {
          size_t begin, end, first_move;  // rows [begin, end), their moves from first_move on
        };
        const size_t chunk = chunk_rows(n, t);
        std::atomic<size_t> next_chunk{0};
        // One cache line or more per thread: the vectors' end pointers move on every row, and
        // two threads' headers side by side in one line made every row a cache-line transfer.
        struct alignas(64) Collected {
          MoveVector moves;
          std::vector<Chunk> chunks;
        };
        std::vector<Collected> collected(t);
        std::atomic<bool> failed{false}, cancelled{false};
        auto place = [&]() noexcept {
          // a stopped run left rows uncounted (their offsets unwritten): nothing to place
          if (cancelled || failed) return;
          offsets.data[0] = 0;
          for (size_t i = 0; i < n; ++i) offsets.data[i + 1] += offsets.data[i];
          const size_t m = static_cast<size_t>(offsets.data[n]);
          try {
            if (with_keys) out.keys.grow(m * 32);
            if (with_rows) out.rows.grow(m * kRowBytes);
            if (with_steps) out.steps.grow(m * kMaxSteps * 3);
            if (encoding) out.feats.grow(m * static_cast<size_t>(encoding_width(enc)));
          } catch (...) {
            failed = true;
          }
        };
        std::barrier sync(t, place);
        auto work = [&](int k, Engine& e) {
          Collected& mine = collected[k];
          try {
            mine.moves = move_buffers().take();
            mine.moves.reserve(n / static_cast<size_t>(t) * 24);
            MoveList list;
            CancelPoll poll(cancel, k == 0, 1);
            for (;;) {
              if (poll.stop()) {  // every thread must still reach the barrier
                cancelled = true;
                break;
              }
              const size_t begin = next_chunk.fetch_add(1) * chunk;
              if (begin >= n) break;
              const size_t end = std::min(n, begin + chunk);
              mine.chunks.push_back(Chunk{begin, end, mine.moves.size()});
              collect_range(e, positions, d, begin, end, list, mine.moves, counts);
            }
          } catch (...) {  // (bad_alloc) every thread must still reach the barrier
            failed = true;
          }
          sync.arrive_and_wait();
          if (!failed && !cancelled) {
            for (const Chunk& c : mine.chunks) {
              const size_t at = static_cast<size_t>(offsets.data[c.begin]);
              const size_t count = static_cast<size_t>(offsets.data[c.end]) - at;
              write_moves(mine.moves.data() + c.first_move, count, variant_entry(v).spare,
                          with_rows ? out.rows.data + at * kRowBytes : nullptr,
                          with_steps ? out.steps.data + at * kMaxSteps * 3 : nullptr, encoding,
                          encoding ? out.feats.data + at * encoding_width(enc) : nullptr,
                          with_keys ? out.keys.data + at * 32 : nullptr);
            }
            store_fence();
          }
          move_buffers().give(std::move(mine.moves));
        };
        std::vector<std::thread> pool;
        for (int k = 1; k < t; ++k)
          pool.emplace_back([&, k] {
            Engine e(v, rules);
            work(k, e);
          });
        work(0, local_engine(v, rules));
        for (auto& th : pool) th.join();
        if (cancelled) throw Cancelled{};
        if (failed) throw std::bad_alloc();
      }
      if (t == 1 || !encoding) {  // (the two-phase path summed them before writing)
        offsets.data[0] = 0;
        for (size_t i = 0; i < n; ++i) offsets.data[i + 1] += offsets.data[i];
      }
    }
  });
  if (!err.empty()) raise_parse_error(err);
  const py::ssize_t m = static_cast<py::ssize_t>(offsets.data[n]);
  py::list result;
  if (with_keys) result.append(out.keys.to_numpy({m, 32}));
  if (with_rows) result.append(out.rows.to_numpy({m, 2, kSlots}));
  if (kind) result.append(out.feats.to_numpy({m, encoding_width(enc)}));
  result.append(offsets.to_numpy({static_cast<py::ssize_t>(n + 1)}));
  if (with_steps) result.append(out.steps.to_numpy({m, kMaxSteps, 3}));
  return py::tuple(result);
}

py::dict counts_dict(Variant v, const RolloutCounts& c) {
  py::dict d;
  const int kinds = outcome_kinds(v);
  py::list names, wins;
  for (int k = 0; k < kinds; ++k) names.append(outcome_kind_name(v, k));
  for (int s = 0; s < 2; ++s) {
    py::list row;
    for (int k = 0; k < kinds; ++k) row.append(c.wins[s][k]);
    wins.append(py::tuple(row));
  }
  d["kinds"] = py::tuple(names);
  d["wins"] = py::tuple(wins);
  d["games"] = c.games;
  d["draws"] = c.draws;
  d["unfinished"] = c.unfinished;
  d["points"] = c.points;
  d["points_sq"] = c.points_sq;
  d["plies"] = c.plies;
  return d;
}

RolloutPolicy policy_of(const std::string& name) {
  if (name == "random") return RolloutPolicy::Random;
  if (name == "greedy") return RolloutPolicy::Greedy;
  raise_error("Error", "unknown built-in policy " + name + "; known: random, greedy");
}

// The lockstep rollout for Python policies; one call at a time.
struct PyLockstep {
  std::unique_ptr<LockstepRollout> impl;
  Variant variant;
  std::atomic<bool> busy{false};

  struct Guard {
    std::atomic<bool>& flag;
    explicit Guard(std::atomic<bool>& f) : flag(f) {
      if (flag.exchange(true))
        throw std::runtime_error("a LockstepRollout is being used by another thread");
    }
    ~Guard() { flag.store(false); }
  };
};

std::vector<PerftTask> tasks_from(const py::list& keys, const py::list& weights) {
  if (keys.size() != weights.size())
    raise_error("Error", "perft tasks: keys and weights differ in length");
  std::vector<PerftTask> tasks(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) {
    tasks[i].pos = key_position(keys[i]);
    tasks[i].weight = weights[i].cast<uint64_t>();
  }
  return tasks;
}

// Ties the table (if any) to the engine's variant and rules, with nardy's error for a table
// filled by another.
PerftTable* bound_table(PerftTable* table, const Engine& engine, bool ordered) {
  if (!table) return nullptr;
  try {
    table->bind(engine.variant(), engine.rules(), ordered);
  } catch (const std::invalid_argument& e) {
    raise_error("InvalidArgumentError", e.what());
  }
  return table;
}


// The search tree's expansion (nardy.search): for every row and each of the 21 rolls (high die
// first, in nardy.search.ROLLS' order) the afterstates in move order, or the row itself when
// the roll has no move, all swapped so that the player to roll next is side 0 (what an
// evaluator reads). Rows are shared out to `threads` workers in chunks; the output is the same
// for any thread count.
py::tuple search_children_impl(const Engine& engine, const py::array& boards, int threads,
                               Cancel* cancel) {
  size_t n = 0;
  const int8_t* b = boards_of(boards, n);
  const Variant v = engine.variant();
  const Rules& rules = engine.rules();
  constexpr size_t kRolls = 21;
  std::vector<Position> positions;
  std::string err;
  Buffer<int64_t> offsets;
  offsets.grow(n * kRolls + 1);
  Buffer<int8_t> rows;
  nardy_py::run_released([&] {
    err = engine.parse_rows(b, nullptr, n, positions);
    if (!err.empty()) return;
    const int t = std::min<int>(resolve_threads(threads),
                                static_cast<int>(std::max<size_t>(n / 16, 1)));
    const size_t chunk = std::clamp<size_t>(n / (static_cast<size_t>(t) * 8), 1, 256);
    const size_t n_chunks = n ? (n + chunk - 1) / chunk : 0;
    std::vector<std::vector<Position>> found(n_chunks);
    int64_t* counts = offsets.data + 1;
    std::atomic<size_t> next{0};
    std::atomic<bool> cancelled{false};
    auto work = [&](int k, Engine& e) {
      MoveList list;
      CancelPoll poll(cancel, k == 0, 1);
      for (;;) {
        if (poll.stop()) {
          cancelled = true;
          return;
        }
        const size_t c = next.fetch_add(1);
        if (c >= n_chunks) return;
        std::vector<Position>& out = found[c];
        for (size_t i = c * chunk; i < std::min(n, (c + 1) * chunk); ++i) {
          size_t r = 0;
          for (int hi = 1; hi <= 6; ++hi) {
            for (int lo = 1; lo <= hi; ++lo, ++r) {
              e.generate(positions[i], hi, lo, list);
              if (list.empty()) {
                out.push_back(positions[i].swapped());
                counts[i * kRolls + r] = 1;
              } else {
                for (size_t m = 0; m < list.size(); ++m) out.push_back(list[m].result.swapped());
                counts[i * kRolls + r] = static_cast<int64_t>(list.size());
              }
            }
          }
        }
      }
    };
    std::vector<std::thread> pool;
    std::vector<std::exception_ptr> errors(static_cast<size_t>(t));
    for (int k = 1; k < t; ++k)
      pool.emplace_back([&, k] {
        try {
          Engine e(v, rules);
          work(k, e);
        } catch (...) {
          errors[static_cast<size_t>(k)] = std::current_exception();
        }
      });
    try {
      work(0, local_engine(v, rules));
    } catch (...) {
      errors[0] = std::current_exception();
    }
    for (auto& th : pool) th.join();
    for (auto& e : errors)
      if (e) std::rethrow_exception(e);
    if (cancelled) throw Cancelled{};
    offsets.data[0] = 0;
    for (size_t i = 0; i < n * kRolls; ++i) offsets.data[i + 1] += offsets.data[i];
    const size_t m = static_cast<size_t>(offsets.data[n * kRolls]);
    int8_t* dst = rows.grow(m * kRowBytes);
    for (const auto& part : found)
      for (const Position& p : part) {
        unpack_row(p, dst, variant_entry(v).spare);
        dst += kRowBytes;
      }
  });
  if (!err.empty()) raise_parse_error(err);
  const auto m = static_cast<py::ssize_t>(offsets.data[n * kRolls]);
  return py::make_tuple(rows.to_numpy({m, 2, kSlots}),
                        offsets.to_numpy({static_cast<py::ssize_t>(n * kRolls + 1)}));
}
}  // namespace

PerftTable* bind_perft_table(PerftTable* table, const Engine& engine, bool ordered) {
  return bound_table(table, engine, ordered);
}

void register_batch(py::module_& m) {
  py::class_<PerftTable>(m, "PerftTable", R"doc(A transposition table for perft: the counts of
subtrees (position, remaining depth) in a fixed amount of memory, shared by the threads of a
count. Exact: an entry keeps the whole position. Bound to the variant, rules and roll weighting
of its first count.)doc")
      .def(py::init([](size_t megabytes) {
             if (megabytes < 1 || megabytes > (size_t{1} << 20))
               raise_error("InvalidArgumentError",
                           "perft table size must be from 1 to 1048576 MB, got " +
                               std::to_string(megabytes));
             try {
               return std::make_unique<PerftTable>(megabytes << 20);
             } catch (const std::bad_alloc&) {
               raise_error("InputTooLargeError", "cannot allocate a perft table of " +
                                                     std::to_string(megabytes) + " MB");
             }
           }),
           py::arg("megabytes"))
      .def_property_readonly("bytes", &PerftTable::bytes)
      .def_property_readonly("entries", &PerftTable::entries);

  m.def("hardware_threads", [] { return resolve_threads(0); },
        "Threads used for threads=0 (std::thread::hardware_concurrency, at least 1).");

  m.def("batch_afterstates",
        [](const Engine& engine, const py::array& boards, const py::array& dice, bool steps,
           int threads, const nardy_py::CancelToken* token) {
          return afterstates_impl(engine, boards, dice, true, steps, nullptr, threads,
                                  nardy_py::cancel_for(token).get());
        },
        py::arg("engine"), py::arg("boards"), py::arg("dice"), py::arg("steps") = false,
        py::arg("threads") = 1, py::arg("cancel") = nullptr,
        "(results (M,2,26) int8, offsets (N+1,) int64[, steps (M,4,3) int8]) for boards "
        "(N,2,26) int8 and dice (N,2) int8. Thread-safe; GIL released.");

  m.def("batch_afterstate_keys",
        [](const Engine& engine, const py::array& boards, const py::array& dice, int threads,
           const nardy_py::CancelToken* token) {
          return afterstates_impl(engine, boards, dice, false, false, nullptr, threads,
                                  nardy_py::cancel_for(token).get(), true);
        },
        py::arg("engine"), py::arg("boards"), py::arg("dice"), py::arg("threads") = 1,
        py::arg("cancel") = nullptr,
        "(keys (M,32) uint8, offsets (N+1,) int64): the afterstates of batch_afterstates as "
        "32-byte position keys (Position.key), in the same order. Thread-safe; GIL released.");

  m.def("batch_afterstate_features",
        [](const Engine& engine, const py::array& boards, const py::array& dice,
           const std::string& kind, bool rows, int threads,
           const nardy_py::CancelToken* token) {
          return afterstates_impl(engine, boards, dice, rows, false, &kind, threads,
                                  nardy_py::cancel_for(token).get());
        },
        py::arg("engine"), py::arg("boards"), py::arg("dice"), py::arg("kind"),
        py::arg("rows") = false, py::arg("threads") = 1, py::arg("cancel") = nullptr,
        "([results (M,2,26) int8,] features (M,F) float32, offsets (N+1,) int64): every "
        "afterstate encoded with side 1 (the player to roll next) on roll.");

  m.def("search_children",
        [](const Engine& engine, const py::array& boards, int threads,
           const nardy_py::CancelToken* token) {
          return search_children_impl(engine, boards, threads, nardy_py::cancel_for(token).get());
        },
        py::arg("engine"), py::arg("boards"), py::arg("threads") = 1, py::arg("cancel") = nullptr,
        "(children (M,2,26) int8, offsets (21N+1,) int64) for boards (N,2,26) int8: group "
        "21i+r holds row i's afterstates for roll r of the 21 (high die first), or row i "
        "itself when the roll has no move, swapped (the player to roll next is side 0). "
        "The same for any thread count; GIL released.");

  m.def("batch_encode",
        [](const py::array& boards, const std::string& kind, const py::object& on_roll,
           const py::object& out_obj, const Engine* engine) {
          size_t n = 0;
          const int8_t* rows = boards_of(boards, n, "boards");
          const Encoding enc = encoding_of(kind);
          const py::ssize_t width = encoding_width(enc);
          int on_roll_all = 0;
          const uint8_t* per_row = nullptr;
          py::array on_roll_arr;
          if (py::isinstance<py::array>(on_roll)) {
            on_roll_arr = on_roll.cast<py::array>();
            if (on_roll_arr.dtype().kind() != 'u' || on_roll_arr.itemsize() != 1 ||
                on_roll_arr.ndim() != 1 || static_cast<size_t>(on_roll_arr.shape(0)) != n ||
                !(on_roll_arr.flags() & py::array::c_style))
              raise_error("Error", "on_roll must be 0, 1 or a (N,) uint8 array of 0/1");
            per_row = static_cast<const uint8_t*>(on_roll_arr.data());
            for (size_t i = 0; i < n; ++i)
              if (per_row[i] > 1) raise_error("Error", "on_roll values must be 0 or 1");
          } else {
            on_roll_all = on_roll.cast<int>();
            if (on_roll_all != 0 && on_roll_all != 1)
              raise_error("Error", "on_roll must be 0, 1 or a (N,) array of 0/1");
          }
          py::array_t<float> out;
          if (out_obj.is_none()) {
            out = py::array_t<float>({static_cast<py::ssize_t>(n), width});
          } else {
            py::array o = out_obj.cast<py::array>();
            if (o.dtype().kind() != 'f' ||
                o.itemsize() != 4 || o.ndim() != 2 || static_cast<size_t>(o.shape(0)) != n ||
                o.shape(1) != width || !(o.flags() & py::array::c_style) || !o.writeable())
              raise_error("Error", "out must be a writeable C-contiguous float32 array of shape (" +
                                       std::to_string(n) + ", " + std::to_string(width) + ")");
            out = py::reinterpret_borrow<py::array_t<float>>(o);
          }
          float* dst = out.mutable_data();
          long bad;
          {
            py::gil_scoped_release release;
            // the variant's engine says which rows it has; rows without one, the encoding
            if (engine) {
              bad = engine->encode(rows, n, enc, per_row, on_roll_all, dst);
            } else {
              bad = check_rows(rows, n, reads_held(enc));
              if (bad < 0) encode_rows(enc, rows, n, per_row, on_roll_all, dst);
            }
          }
          if (bad >= 0) {
            const bool held = engine ? engine->held_checkers() || reads_held(enc) : reads_held(enc);
            raise_error("InvalidPositionError",
                        "row " + std::to_string(bad) + " holds a value outside 0..15" +
                            (held ? " (or -1 for a held checker on a point)"
                                  : " (-1, a held checker, only in a variant that has one)"));
          }
          return out;
        },
        py::arg("boards"), py::arg("kind"), py::arg("on_roll") = 0, py::arg("out") = py::none(),
        py::arg("engine") = nullptr,
        "Encodes (N,2,26) int8 rows into a (N,F) float32 matrix (see features.hpp); `engine` "
        "(the rows' variant, or None) checks them for its variant.");

  m.def("encoding_width", [](const std::string& kind) { return encoding_width(encoding_of(kind)); });

  m.def("batch_keys",
        [](const Engine& engine, const py::array& boards, bool swap) {
          size_t n = 0;
          const int8_t* rows = boards_of(boards, n);
          std::vector<Position> positions;
          std::string err;
          {
            py::gil_scoped_release release;
            err = engine.parse_rows(rows, nullptr, n, positions);
          }
          if (!err.empty()) raise_parse_error(err);
          py::list out(n);
          for (size_t i = 0; i < n; ++i)
            out[i] = position_key(swap ? positions[i].swapped() : positions[i]);
          return out;
        },
        py::arg("engine"), py::arg("boards"), py::arg("swap") = false,
        "Validated position keys (32 bytes each) of (N,2,26) rows; swap: (side 1, side 0).");

  m.def("batch_rows",
        [](const py::list& keys, std::optional<Variant> v) {
          const size_t n = keys.size();
          const SpareBits spare = v ? variant_entry(*v).spare : SpareBits::Held;
          Buffer<int8_t> buf;
          int8_t* dst = buf.grow(n * kRowBytes);
          for (size_t i = 0; i < n; ++i)
            unpack_row(key_position(keys[i]), dst + i * kRowBytes, spare);
          return buf.to_numpy({static_cast<py::ssize_t>(n), 2, kSlots});
        },
        py::arg("keys"), py::arg("variant") = std::nullopt,
        "(N,2,26) int8 rows of N position keys, as the variant's side arrays show them "
        "(default: held checkers as -1).");

  m.def("rollout_kinds", [](Variant v) {
    py::list names;
    for (int k = 0; k < outcome_kinds(v); ++k) names.append(outcome_kind_name(v, k));
    return py::tuple(names);
  });

  m.def("rollout",
        [](const Engine& engine, py::bytes key, uint64_t games, const std::string& policy,
           uint64_t seed, uint64_t first_trial, int threads, uint32_t max_plies,
           const nardy_py::CancelToken* token, uint32_t quasi) {
          if (quasi > kMaxQuasiPlies) raise_error("Error", "quasi_random must be 0..8");
          RolloutSettings s;
          s.quasi = quasi;
          s.policy = policy_of(policy);
          s.seed = seed;
          s.first_trial = first_trial;
          s.trials = games;
          s.threads = threads;
          s.max_plies = max_plies;
          const Position start = key_position(key);
          const Variant v = engine.variant();
          const Rules rules = engine.rules();
          const auto cancel = nardy_py::cancel_for(token);
          double secs = 0;
          const RolloutCounts c = nardy_py::run_released([&] {
            const auto t0 = std::chrono::steady_clock::now();
            RolloutCounts counts = rollout(v, rules, start, s, cancel.get());
            secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            return counts;
          });
          py::dict d = counts_dict(v, c);
          d["seconds"] = secs;
          d["threads"] = std::min<uint64_t>(static_cast<uint64_t>(resolve_threads(threads)),
                                            std::max<uint64_t>(games, 1));
          return d;
        },
        py::arg("engine"), py::arg("key"), py::arg("games"), py::arg("policy") = "random",
        py::arg("seed") = 0, py::arg("first_trial") = 0, py::arg("threads") = 1,
        py::arg("max_plies") = 10000, py::arg("cancel") = nullptr, py::arg("quasi_random") = 0,
        "Plays trials [first_trial, first_trial + games) from the key's position with a "
        "built-in policy; integer counts (see rollout.hpp). GIL released; Ctrl-C or the "
        "token stops it (KeyboardInterrupt).");

  py::class_<PyLockstep>(m, "LockstepRollout")
      .def(py::init([](const Engine& engine, py::bytes key, uint64_t games, uint64_t seed,
                       uint64_t first_trial, uint32_t max_plies, size_t width,
                       uint32_t quasi, bool every_ply) {
             if (quasi > kMaxQuasiPlies) raise_error("Error", "quasi_random must be 0..8");
             auto p = std::make_unique<PyLockstep>();
             p->variant = engine.variant();
             p->impl = std::make_unique<LockstepRollout>(engine.variant(), engine.rules(),
                                                         key_position(key), seed, first_trial,
                                                         games, max_plies, width, quasi,
                                                         every_ply);
             return p;
           }),
           py::arg("engine"), py::arg("key"), py::arg("games"), py::arg("seed") = 0,
           py::arg("first_trial") = 0, py::arg("max_plies") = 10000, py::arg("width") = 256,
           py::arg("quasi_random") = 0, py::arg("every_ply") = false)
      .def("advance", [](PyLockstep& s, const nardy_py::CancelToken* token) {
        PyLockstep::Guard g(s.busy);
        const auto cancel = nardy_py::cancel_for(token);
        return nardy_py::run_released([&] { return s.impl->advance(cancel.get()); });
      }, py::arg("cancel") = nullptr,
         "Runs every game to its next decision; returns how many games wait (0: all done). "
         "Ctrl-C or the token stops it (KeyboardInterrupt).")
      .def("candidates", [](PyLockstep& s) {
        PyLockstep::Guard g(s.busy);
        const auto& c = s.impl->candidates();
        Buffer<int8_t> buf;
        int8_t* dst = buf.grow(c.size() * kRowBytes);
        const SpareBits spare = variant_entry(s.variant).spare;
        for (size_t i = 0; i < c.size(); ++i) unpack_row(c[i], dst + i * kRowBytes, spare);
        return buf.to_numpy({static_cast<py::ssize_t>(c.size()), 2, kSlots});
      }, "(M,2,26) int8 candidates of the waiting games (unswapped afterstates).")
      .def("features", [](PyLockstep& s, const std::string& kind) {
        PyLockstep::Guard g(s.busy);
        const Encoding enc = encoding_of(kind);
        const auto& c = s.impl->candidates();
        const auto& stays = s.impl->continues();
        const size_t w = static_cast<size_t>(encoding_width(enc));
        Buffer<float> buf;
        float* dst = buf.grow(c.size() * w);
        int8_t row[kRowBytes];
        const SpareBits spare = variant_entry(s.variant).spare;
        for (size_t i = 0; i < c.size(); ++i) {
          unpack_row(c[i], row, spare);
          encode_row(enc, row, stays[i] ? 0 : 1, dst + i * w);
        }
        return buf.to_numpy({static_cast<py::ssize_t>(c.size()), static_cast<py::ssize_t>(w)});
      }, "(M,F) float32 encoding of the candidates, the player to roll next on roll (side 1, "
         "or side 0 where continues()).")
      .def("continues", [](PyLockstep& s) {
        PyLockstep::Guard g(s.busy);
        const auto& c = s.impl->continues();
        py::array_t<bool> a(static_cast<py::ssize_t>(c.size()));
        for (size_t i = 0; i < c.size(); ++i) a.mutable_data()[i] = c[i] != 0;
        return a;
      }, "(M,) bool: the candidate leaves its mover on roll (a play of carried dice, or a move "
         "after which he rolls again).")
      .def("offsets", [](PyLockstep& s) {
        const auto& o = s.impl->offsets();
        py::array_t<int64_t> a(static_cast<py::ssize_t>(o.size()));
        std::memcpy(a.mutable_data(), o.data(), o.size() * sizeof(int64_t));
        return a;
      })
      .def("trials", [](PyLockstep& s) {
        const auto& t = s.impl->waiting_trials();
        py::array_t<uint64_t> a(static_cast<py::ssize_t>(t.size()));
        std::memcpy(a.mutable_data(), t.data(), t.size() * sizeof(uint64_t));
        return a;
      }, "Trial index of every waiting game.")
      .def("movers", [](PyLockstep& s) {
        const auto m = s.impl->waiting_movers();
        py::array_t<int8_t> a(static_cast<py::ssize_t>(m.size()));
        if (!m.empty()) std::memcpy(a.mutable_data(), m.data(), m.size());
        return a;
      }, "Who moves in every waiting game (0: the player on roll at the start, 1: the "
         "opponent).")
      .def("positions", [](PyLockstep& s) {
        PyLockstep::Guard g(s.busy);
        const auto c = s.impl->waiting_positions();
        Buffer<int8_t> buf;
        int8_t* dst = buf.grow(c.size() * kRowBytes);
        const SpareBits spare = variant_entry(s.variant).spare;
        for (size_t i = 0; i < c.size(); ++i) unpack_row(c[i], dst + i * kRowBytes, spare);
        return buf.to_numpy({static_cast<py::ssize_t>(c.size()), 2, kSlots});
      }, "(K,2,26) int8 positions of the waiting games before their roll (side 0 on roll).")
      .def("dice", [](PyLockstep& s) {
        const auto d = s.impl->waiting_dice();
        py::array_t<int8_t> a({static_cast<py::ssize_t>(d.size() / 2), py::ssize_t{2}});
        if (!d.empty()) std::memcpy(a.mutable_data(), d.data(), d.size());
        return a;
      }, "(K,2) int8 dice of the waiting games' roll.")
      .def("choose", [](PyLockstep& s, py::array_t<int64_t, py::array::c_style | py::array::forcecast> choices,
                        std::optional<py::array_t<double, py::array::c_style | py::array::forcecast>> luck) {
        PyLockstep::Guard g(s.busy);
        const double* l = nullptr;
        if (luck) {
          if (luck->ndim() != 1 || luck->shape(0) != choices.shape(0))
            raise_error("Error", "choose(): luck needs one value per waiting game");
          l = luck->data();
        }
        if (choices.ndim() != 1 || !s.impl->choose(choices.data(), static_cast<size_t>(choices.shape(0)), l))
          raise_error("Error", "choose() needs one index per waiting game, each within its "
                               "game's candidates");
      }, py::arg("choices"), py::arg("luck") = py::none())
      .def("take_finished", [](PyLockstep& s) {
        PyLockstep::Guard g(s.busy);
        const auto f = s.impl->take_finished();
        const auto n = static_cast<py::ssize_t>(f.size());
        py::array_t<uint64_t> trials(n);
        py::array_t<int64_t> points(n);
        py::array_t<double> luck(n);
        for (py::ssize_t i = 0; i < n; ++i) {
          trials.mutable_data()[i] = f[static_cast<size_t>(i)].trial;
          points.mutable_data()[i] = f[static_cast<size_t>(i)].points;
          luck.mutable_data()[i] = f[static_cast<size_t>(i)].luck;
        }
        return py::make_tuple(trials, points, luck);
      }, "Every-ply mode: (trials, points, luck) of the trials finished since the last call.")
      .def("counts", [](PyLockstep& s) { return counts_dict(s.variant, s.impl->counts()); })
      .def_property_readonly("done", [](PyLockstep& s) { return s.impl->done(); });

  m.def("perft_threads",
        [](const Engine& engine, py::bytes key, int depth, bool ordered, int threads,
           const nardy_py::CancelToken* token, PerftTable* table) {
          if (depth < 0) raise_error("Error", "perft depth must be >= 0");
          const Position pos = key_position(key);
          const Variant v = engine.variant();
          const Rules rules = engine.rules();
          const auto cancel = nardy_py::cancel_for(token);
          table = bound_table(table, engine, ordered);
          return nardy_py::run_released([&] {
            return perft_parallel(v, rules, pos, depth, ordered, threads, cancel.get(), table);
          });
        },
        py::arg("engine"), py::arg("key"), py::arg("depth"), py::arg("ordered") = false,
        py::arg("threads") = 0, py::arg("cancel") = nullptr, py::arg("table") = nullptr,
        "perft on `threads` threads (0: all cores), with a shared PerftTable if given. GIL "
        "released.");

  m.def("perft_split",
        [](const Engine& engine, py::bytes key, int depth, bool ordered, size_t min_tasks,
           const nardy_py::CancelToken* token) {
          if (depth < 1) raise_error("Error", "perft_split needs depth >= 1");
          const Position pos = key_position(key);
          int levels = 0;
          const auto cancel = nardy_py::cancel_for(token);
          const std::vector<PerftTask> tasks = nardy_py::run_released([&] {
            Engine e(engine.variant(), engine.rules());
            return perft_split(e, pos, depth, ordered, min_tasks, levels, cancel.get());
          });
          py::list keys(tasks.size()), weights(tasks.size());
          for (size_t i = 0; i < tasks.size(); ++i) {
            keys[i] = position_key(tasks[i].pos);
            weights[i] = py::int_(tasks[i].weight);
          }
          return py::make_tuple(keys, weights, depth - levels);
        },
        py::arg("engine"), py::arg("key"), py::arg("depth"), py::arg("ordered") = false,
        py::arg("min_tasks") = 64, py::arg("cancel") = nullptr,
        "(keys, weights, remaining_depth): perft(key, depth) = sum(w * perft(k, remaining)).");

  m.def("perft_tasks",
        [](const Engine& engine, const py::list& keys, const py::list& weights, int depth,
           bool ordered, int threads, const nardy_py::CancelToken* token, PerftTable* table) {
          if (depth < 0) raise_error("Error", "perft depth must be >= 0");
          const std::vector<PerftTask> tasks = tasks_from(keys, weights);
          const Variant v = engine.variant();
          const Rules rules = engine.rules();
          const auto cancel = nardy_py::cancel_for(token);
          table = bound_table(table, engine, ordered);
          return nardy_py::run_released([&] {
            return perft_tasks(v, rules, tasks, depth, ordered, threads, cancel.get(), table);
          });
        },
        py::arg("engine"), py::arg("keys"), py::arg("weights"), py::arg("depth"),
        py::arg("ordered") = false, py::arg("threads") = 1, py::arg("cancel") = nullptr,
        py::arg("table") = nullptr,
        "sum(weight * perft(key, depth)) over the tasks, on `threads` threads. GIL released.");
}
