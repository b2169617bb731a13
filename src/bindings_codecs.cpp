// Position ID and XGID codecs of nardy._core (src/nardy/codecs.hpp), one at a time and as
// numpy batches with the GIL released. Registered by register_codecs() from src/bindings.cpp.
// Batch IDs are numpy unicode arrays ('<U14' for Position IDs): nothing is a Python object
// per row, and elements compare equal to str.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "nardy/codecs.hpp"
#include "bindings_errors.hpp"
#include "nardy/engine.hpp"
#include "nardy/features.hpp"
#include "nardy/registry.hpp"

namespace py = pybind11;
using namespace nardy;
namespace cx = nardy::codecs;

namespace {

using nardy_py::raise_error;

Position key_position(py::handle key) {
  if (!PyBytes_Check(key.ptr()) || PyBytes_GET_SIZE(key.ptr()) != 32)
    raise_error("InvalidPositionError", "a position key is 32 bytes (nardy.Position.key)");
  Position p;
  std::memcpy(p.us.w, PyBytes_AS_STRING(key.ptr()), 16);
  std::memcpy(p.them.w, PyBytes_AS_STRING(key.ptr()) + 16, 16);
  return p;
}

py::bytes position_key(const Position& p) {
  char b[32];
  std::memcpy(b, p.us.w, 16);
  std::memcpy(b + 16, p.them.w, 16);
  return py::bytes(b, 32);
}

// The text of a str argument, refusing anything else.
std::string_view text_of(py::handle s, const char* what) {
  if (!PyUnicode_Check(s.ptr()))
    raise_error("InvalidIdError", std::string(what) + " must be a str, got " +
                                      std::string(py::str(py::type::of(s).attr("__name__"))));
  Py_ssize_t n = 0;
  const char* p = PyUnicode_AsUTF8AndSize(s.ptr(), &n);
  if (!p) throw py::error_already_set();
  return {p, static_cast<size_t>(n)};
}

// The variant of an engine, if its board is gnubg's: 24 points, a bar, index j facing 23 - j.
const VariantEntry& gnubg_board(const Engine& e, const char* what) {
  const VariantEntry& v = variant_entry(e.variant());
  bool ok = v.has_bar;
  for (int j = 0; j < kPoints && ok; ++j) ok = v.to_mover(j) == 23 - j;
  if (!ok)
    raise_error("InvalidIdError", std::string(what) + " describes a backgammon board, not a " +
                                      std::string(v.names[0].name) + " position");
  return v;
}

void side_from_array(const SideArray& a, int8_t* out) {
  for (int k = 0; k < kSlots; ++k) out[k] = static_cast<int8_t>(a[k]);
}

py::tuple side_tuple(const int8_t* s) {
  py::tuple t(kSlots);
  for (int k = 0; k < kSlots; ++k) t[k] = py::int_(int(s[k]));
  return t;
}

// Decoded sides into a validated key of the variant; an empty string, or why not.
std::string sides_key(const VariantEntry& v, const int8_t* mover, const int8_t* opponent,
                      Position& out) {
  SideArray us{}, them{};
  for (int k = 0; k < kSlots; ++k) {
    us[k] = mover[k];
    them[k] = opponent[k];
  }
  std::string err = v.validate(us, them);
  if (err.empty()) out = Position{v.make_side(us), v.make_side(them)};
  return err;
}

// A 1-d numpy array of strings ('U' or 'S'): element i as ASCII bytes (a character outside
// ASCII becomes 0xFF, which no codec accepts), trailing NULs dropped.
struct StringColumn {
  const char* data = nullptr;
  py::ssize_t stride = 0;
  size_t width = 0;  // characters per element
  bool unicode = false;
  size_t n = 0;

  explicit StringColumn(const py::array& a, const char* what) {
    const char kind = a.dtype().kind();
    if ((kind != 'U' && kind != 'S') || a.ndim() != 1)
      raise_error("InvalidIdError", std::string(what) +
                                        " must be a 1-d array or sequence of str, got dtype " +
                                        std::string(py::str(a.dtype())) + " with " +
                                        std::to_string(a.ndim()) + " dimensions");
    unicode = kind == 'U';
    width = static_cast<size_t>(a.itemsize()) / (unicode ? 4 : 1);
    data = static_cast<const char*>(a.data());
    stride = a.strides(0);
    n = static_cast<size_t>(a.shape(0));
  }
  // Copies element i into buf (at least `width` bytes); returns its length.
  size_t get(size_t i, char* buf) const noexcept {
    const char* p = data + static_cast<py::ssize_t>(i) * stride;
    size_t len = 0;
    if (unicode) {
      for (size_t k = 0; k < width; ++k) {
        uint32_t c;
        std::memcpy(&c, p + 4 * k, 4);
        buf[k] = c < 0x80 ? static_cast<char>(c) : static_cast<char>(0xFF);
        if (c) len = k + 1;
      }
    } else {
      for (size_t k = 0; k < width; ++k) {
        buf[k] = p[k];
        if (p[k]) len = k + 1;
      }
    }
    return len;
  }
};

// A (n,) numpy unicode array of `width` characters an element.
py::array unicode_array(size_t n, size_t width) {
  return py::array(py::dtype("<U" + std::to_string(std::max<size_t>(width, 1))),
                   std::vector<py::ssize_t>{static_cast<py::ssize_t>(n)});
}

void put_unicode(uint32_t* dst, const char* s, size_t len, size_t width) noexcept {
  size_t k = 0;
  for (; k < len; ++k) dst[k] = static_cast<unsigned char>(s[k]);
  for (; k < width; ++k) dst[k] = 0;
}

const int8_t* rows_of(const py::array& a, size_t& n) {
  if (a.dtype().kind() != 'i' || a.itemsize() != 1 || a.ndim() != 3 || a.shape(1) != 2 ||
      a.shape(2) != kSlots || !(a.flags() & py::array::c_style))
    raise_error("InvalidPositionError",
                "boards must be a C-contiguous (N, 2, 26) int8 array, got dtype " +
                    std::string(py::str(a.dtype())) + " with " + std::to_string(a.ndim()) +
                    " dimensions");
  n = static_cast<size_t>(a.shape(0));
  return static_cast<const int8_t*>(a.data());
}

void validate_rows(const Engine& e, const int8_t* rows, size_t n) {
  std::vector<Position> scratch;
  std::string err;
  {
    py::gil_scoped_release release;
    err = e.parse_rows(rows, nullptr, n, scratch);
  }
  if (!err.empty()) raise_error("InvalidPositionError", err);
}

constexpr char kActions[] = {0, 'D', 'B', 'R'};

int action_code(char a) {
  for (int i = 1; i < 4; ++i)
    if (kActions[i] == a) return i;
  return 0;
}

}  // namespace

void register_codecs(py::module_& m) {
  m.def("encode_position_id", [](const SideArray& mover, const SideArray& opponent) {
    int8_t a[kSlots], b[kSlots];
    side_from_array(mover, a);
    side_from_array(opponent, b);
    char out[cx::kPositionIdChars];
    cx::encode_position_id(a, b, out);
    return py::str(out, cx::kPositionIdChars);
  }, py::arg("mover"), py::arg("opponent"),
     "The Position ID of two side arrays (validated by the caller).");

  m.def("decode_position_id", [](py::handle s, int checkers) {
    const std::string_view t = text_of(s, "a Position ID");
    int8_t a[kSlots], b[kSlots];
    const cx::IdResult r = cx::decode_position_id(t.data(), t.size(), checkers, a, b);
    if (!r) raise_error("InvalidIdError", cx::describe(r, t.data(), t.size(), checkers));
    return py::make_tuple(side_tuple(a), side_tuple(b));
  }, py::arg("id"), py::arg("checkers") = 15,
     "(mover, opponent) side arrays of a Position ID; InvalidIdError when malformed.");

  m.def("key_position_id", [](py::handle key) {
    int8_t row[kRowBytes];
    unpack_row(key_position(key), row, SpareBits::Held);  // (backgammon boards)
    char out[cx::kPositionIdChars];
    cx::encode_position_id(row, row + kSlots, out);
    return py::str(out, cx::kPositionIdChars);
  }, py::arg("key"), "The Position ID of a position key (of a variant with gnubg's board).");

  m.def("position_id_key", [](const Engine& e, py::handle s) {
    const VariantEntry& v = gnubg_board(e, "a gnubg Position ID");
    const std::string_view t = text_of(s, "a Position ID");
    int8_t a[kSlots], b[kSlots];
    const cx::IdResult r = cx::decode_position_id(t.data(), t.size(), v.checkers, a, b);
    if (!r) raise_error("InvalidIdError", cx::describe(r, t.data(), t.size(), v.checkers));
    Position p;
    const std::string err = sides_key(v, a, b, p);
    if (!err.empty()) raise_error("InvalidIdError", "Position ID '" + std::string(t) + "': " + err);
    return position_key(p);
  }, py::arg("engine"), py::arg("id"),
     "The validated key of a Position ID for the engine's variant (the mover on roll).");

  m.def("encode_xgid",
        [](const SideArray& mover, const SideArray& opponent, int cube_exp, int cube_position,
           int turn, int d1, int d2, const std::string& action, int score_bottom,
           int score_top, int rules, int match_length, int max_cube_exp) {
          int8_t a[kSlots], b[kSlots];
          side_from_array(mover, a);
          side_from_array(opponent, b);
          cx::XgidFields f;
          f.cube_exp = cube_exp;
          f.cube_position = cube_position;
          f.turn = turn;
          f.d1 = d1;
          f.d2 = d2;
          f.action = action.empty() ? 0 : action[0];
          f.score_bottom = score_bottom;
          f.score_top = score_top;
          f.rules = rules;
          f.match_length = match_length;
          f.max_cube_exp = max_cube_exp;
          char out[cx::kMaxXgidChars];
          const size_t n = cx::encode_xgid(a, b, f, out);
          return py::str(out, n);
        },
        "The XGID of a validated record's fields (xgid.py's XgidRecord checks them).");

  m.def("decode_xgid", [](py::handle s, int checkers) {
    const std::string_view t = text_of(s, "an XGID");
    int8_t a[kSlots], b[kSlots];
    cx::XgidFields f;
    const std::string err = cx::decode_xgid(t.data(), t.size(), checkers, a, b, f);
    if (!err.empty()) raise_error("InvalidIdError", err);
    const char act[2] = {f.action, 0};
    return py::make_tuple(side_tuple(a), side_tuple(b), f.cube_exp, f.cube_position, f.turn,
                          f.d1, f.d2, py::str(act, f.action ? 1 : 0), f.score_bottom,
                          f.score_top, f.rules, f.match_length, f.max_cube_exp);
  }, py::arg("xgid"), py::arg("checkers") = 15,
     "(mover, opponent, cube_exp, cube_position, turn, d1, d2, action, score_bottom, "
     "score_top, rules, match_length, max_cube_exp); InvalidIdError (without the XGID quoted) "
     "when malformed.");

  m.def("key_xgid", [](py::handle key, int turn) {
    int8_t row[kRowBytes];
    unpack_row(key_position(key), row, SpareBits::Held);  // (backgammon boards)
    cx::XgidFields f;
    f.turn = turn == -1 ? -1 : 1;
    char out[cx::kMaxXgidChars];
    const size_t n = cx::encode_xgid(row, row + kSlots, f, out);
    return py::str(out, n);
  }, py::arg("key"), py::arg("turn") = 1,
     "The XGID of a position key with its mover as the bottom player (turn 1) or the top one "
     "(-1); cube centred at 1, money play, no dice.");

  m.def("xgid_key", [](const Engine& e, py::handle s) {
    const VariantEntry& v = gnubg_board(e, "an XGID");
    const std::string_view t = text_of(s, "an XGID");
    int8_t a[kSlots], b[kSlots];
    cx::XgidFields f;
    std::string err = cx::decode_xgid(t.data(), t.size(), v.checkers, a, b, f);
    Position p;
    if (err.empty()) err = sides_key(v, a, b, p);
    if (!err.empty())
      raise_error("InvalidIdError", "XGID " + std::string(py::repr(s)) + ": " + err);
    return py::make_tuple(position_key(p), f.turn);
  }, py::arg("engine"), py::arg("xgid"),
     "(key, turn) of an XGID's position for the engine's variant: the key from the view of "
     "the player on roll, turn 1 when that is the bottom player (X).");

  m.def("batch_position_ids", [](const Engine& e, const py::array& boards) {
    gnubg_board(e, "a gnubg Position ID");
    size_t n = 0;
    const int8_t* rows = rows_of(boards, n);
    validate_rows(e, rows, n);
    py::array out = unicode_array(n, cx::kPositionIdChars);
    uint32_t* dst = static_cast<uint32_t*>(out.mutable_data());
    {
      py::gil_scoped_release release;
      char id[cx::kPositionIdChars];
      for (size_t i = 0; i < n; ++i) {
        const int8_t* row = rows + i * kRowBytes;
        cx::encode_position_id(row, row + kSlots, id);
        put_unicode(dst + i * cx::kPositionIdChars, id, cx::kPositionIdChars,
                    cx::kPositionIdChars);
      }
    }
    return out;
  }, py::arg("engine"), py::arg("boards"),
     "The (N,) '<U14' Position IDs of (N,2,26) int8 rows (validated). GIL released.");

  m.def("batch_from_position_ids", [](const Engine& e, const py::array& ids) {
    const VariantEntry& v = gnubg_board(e, "a gnubg Position ID");
    const StringColumn col(ids, "ids");
    py::array_t<int8_t> out({static_cast<py::ssize_t>(col.n), py::ssize_t{2},
                             static_cast<py::ssize_t>(kSlots)});
    int8_t* dst = out.mutable_data();
    size_t bad = col.n;
    cx::IdResult why;
    std::string buf(std::max<size_t>(col.width, 1), '\0');
    {
      py::gil_scoped_release release;
      for (size_t i = 0; i < col.n; ++i) {
        const size_t len = col.get(i, buf.data());
        int8_t* row = dst + i * kRowBytes;
        why = cx::decode_position_id(buf.data(), len, v.checkers, row, row + kSlots);
        if (!why) {
          bad = i;
          break;
        }
      }
    }
    if (bad < col.n) {
      const size_t len = col.get(bad, buf.data());
      raise_error("InvalidIdError", "ids[" + std::to_string(bad) + "]: " +
                                        cx::describe(why, buf.data(), len, v.checkers));
    }
    // The codec's checks are the variant's for gnubg's boards, but a variant may add its own.
    validate_rows(e, dst, col.n);
    return out;
  }, py::arg("engine"), py::arg("ids"),
     "(N,2,26) int8 rows (mover first) of N Position IDs ('U' or 'S' array). GIL released.");

  m.def("batch_xgids", [](const Engine& e, const py::array& boards, const py::array& turn) {
    gnubg_board(e, "an XGID");
    size_t n = 0;
    const int8_t* rows = rows_of(boards, n);
    if (turn.dtype().kind() != 'i' || turn.itemsize() != 1 || turn.ndim() != 1 ||
        static_cast<size_t>(turn.shape(0)) != n || !(turn.flags() & py::array::c_style))
      raise_error("InvalidIdError", "turn must be a C-contiguous (N,) int8 array");
    const int8_t* t = static_cast<const int8_t*>(turn.data());
    for (size_t i = 0; i < n; ++i)
      if (t[i] != 1 && t[i] != -1)
        raise_error("InvalidIdError", "turn[" + std::to_string(i) +
                                          "] must be 1 (bottom player) or -1 (top player)");
    validate_rows(e, rows, n);
    constexpr size_t kWidth = 5 + 26 + 21;  // the longest with the default fields: turn -1
    py::array out = unicode_array(n, kWidth);
    uint32_t* dst = static_cast<uint32_t*>(out.mutable_data());
    {
      py::gil_scoped_release release;
      char buf[cx::kMaxXgidChars];
      cx::XgidFields f;
      for (size_t i = 0; i < n; ++i) {
        const int8_t* row = rows + i * kRowBytes;
        f.turn = t[i];
        const size_t len = cx::encode_xgid(row, row + kSlots, f, buf);
        put_unicode(dst + i * kWidth, buf, len, kWidth);
      }
    }
    return out;
  }, py::arg("engine"), py::arg("boards"), py::arg("turn"),
     "(N,) XGIDs of (N,2,26) int8 rows, side 0 the bottom player where turn is 1, the top "
     "player where it is -1; cube centred at 1, money play, no dice. GIL released.");

  m.def("batch_from_xgids", [](const Engine& e, const py::array& ids) {
    const VariantEntry& v = gnubg_board(e, "an XGID");
    const StringColumn col(ids, "xgids");
    const auto n = static_cast<py::ssize_t>(col.n);
    py::array_t<int8_t> out({n, py::ssize_t{2}, static_cast<py::ssize_t>(kSlots)});
    py::array_t<int32_t> fields({n, py::ssize_t{12}});
    int8_t* dst = out.mutable_data();
    int32_t* fd = fields.mutable_data();
    size_t bad = col.n;
    std::string why;
    std::string buf(std::max<size_t>(col.width, 1), '\0');
    {
      py::gil_scoped_release release;
      cx::XgidFields f;
      for (size_t i = 0; i < col.n; ++i) {
        const size_t len = col.get(i, buf.data());
        int8_t* row = dst + i * kRowBytes;
        why = cx::decode_xgid(buf.data(), len, v.checkers, row, row + kSlots, f);
        if (!why.empty()) {
          bad = i;
          break;
        }
        const int32_t vals[12] = {f.cube_exp,    f.cube_position,  f.turn,
                                  f.d1,          f.d2,             action_code(f.action),
                                  f.score_bottom, f.score_top,     f.rules,
                                  f.match_length, f.max_cube_exp,  0};
        std::memcpy(fd + 12 * i, vals, sizeof vals);
      }
    }
    if (bad < col.n) {
      const size_t len = col.get(bad, buf.data());
      raise_error("InvalidIdError", "xgids[" + std::to_string(bad) + "] " +
                                        cx::quote(buf.data(), len) + ": " + why);
    }
    validate_rows(e, dst, col.n);
    return py::make_tuple(out, fields);
  }, py::arg("engine"), py::arg("xgids"),
     "((N,2,26) int8 rows from the view of the player on roll, (N,12) int32 fields: "
     "cube_exp, cube_position, turn, d1, d2, action (0, 1 D, 2 B, 3 R), score_bottom, "
     "score_top, rules, match_length, max_cube_exp, 0). GIL released.");
}
