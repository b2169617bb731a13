// nardy.LegalMoves as a read-only sequence over the enumerator's result buffer, and the
// nardy.Move objects it hands out. Registered by register_moves() from src/bindings.cpp.
//
// A LegalMoves object is one allocation: a header (position, variant, engine, dice) followed by
// a copy of the MoveList entries. len() and `in` never create Python objects; a Move is made
// only when one is indexed or iterated, carrying the position's variant and colour so that it
// prints in that position's notation. (No cache of Move objects: over a varied set of
// positions a cache is mostly misses into cold memory, slower than a fresh small object.)
//
// Written against the CPython API rather than pybind11 classes: a pybind11 call and instance
// cost more than the enumeration itself for a typical roll.
#include <pybind11/pybind11.h>

#include <structmember.h>

#include <cstddef>
#include <cstring>
#include <string>

#include "bindings_errors.hpp"
#include "nardy/engine.hpp"

namespace py = pybind11;
using namespace nardy;

namespace {

struct LegalMovesObject {
  PyObject_VAR_HEAD
  PyObject* position;  // nardy.Position
  PyObject* variant;   // its variant: the Move context
  PyObject* engine;    // keeps `eng` alive
  PyObject* dice;      // (d1, d2)
  Engine* eng;
  Position origin;
  long turn;
  Move moves[1];  // Py_SIZE(self) entries
};

constexpr Py_ssize_t kHeaderSize = offsetof(LegalMovesObject, moves);

// Types and slot offsets registered by nardy.position at import. The offsets are read from the
// classes' member descriptors, so nothing here depends on the order of their __slots__.
struct Registry {
  PyTypeObject* base = nullptr;      // _core.LegalMovesBase
  PyTypeObject* legal = nullptr;     // nardy.LegalMoves (a subclass of base)
  PyTypeObject* move = nullptr;      // nardy.Move
  PyObject* step = nullptr;          // nardy.Step
  PyTypeObject* position = nullptr;  // nardy.Position (exact type: slots read directly)
  PyObject* check_dice = nullptr;    // nardy.position._check_dice, for anything unusual
  Py_ssize_t move_steps = -1, move_variant = -1, move_color = -1;
  Py_ssize_t move_src = -1, move_index = -1, move_named = -1;
  Py_ssize_t pos_key = -1, pos_variant = -1, pos_turn = -1;
  Py_ssize_t variant_engine = -1;
  PyTypeObject* variant_base = nullptr;
  const py::detail::type_info* engine_info = nullptr;
};
Registry g;

PyObject* g_steps[25 * 26 * 2] = {};

PyObject*& slot_at(PyObject* o, Py_ssize_t offset) {
  return *reinterpret_cast<PyObject**>(reinterpret_cast<char*>(o) + offset);
}

Py_ssize_t member_offset(PyTypeObject* type, const char* name) {
  PyObject* d = PyDict_GetItemString(type->tp_dict, name);
  if (!d || Py_TYPE(d) != &PyMemberDescr_Type)
    throw py::type_error(std::string("nardy._core: ") + type->tp_name + "." + name +
                         " must be a __slots__ member");
  PyMemberDef* def = reinterpret_cast<PyMemberDescrObject*>(d)->d_member;
  if (def->type != T_OBJECT_EX) throw py::type_error("nardy._core: unexpected member type");
  return def->offset;
}

PyObject* step_object(const Step& s) {
  PyObject*& slot = g_steps[(s.from * 26 + (s.to + 1)) * 2 + (s.hit ? 1 : 0)];
  if (!slot) slot = PyObject_CallFunction(g.step, "iiO", int(s.from), int(s.to),
                                          s.hit ? Py_True : Py_False);
  return slot;
}

// The tuple of Steps of `m`, a new reference.
PyObject* steps_of(const Move& m) {
  PyObject* steps = PyTuple_New(m.n_steps);
  if (!steps) return nullptr;
  for (int k = 0; k < m.n_steps; ++k) {
    PyObject* st = step_object(m.steps[k]);
    if (!st) {
      Py_DECREF(steps);
      return nullptr;
    }
    Py_INCREF(st);
    PyTuple_SET_ITEM(steps, k, st);
  }
  PyObject_GC_UnTrack(steps);  // holds only Steps: no cycle possible
  return steps;
}

// Freed Move objects kept for the next ones (as CPython keeps small tuples): a listing makes
// and drops a few dozen at a time, and a reused object skips the allocator and the garbage
// collector's allocation count. Each keeps its reference to the Move class. Not in builds that
// count references or run without the GIL.
#if !defined(Py_REF_DEBUG) && !defined(Py_GIL_DISABLED)
constexpr int kMoveFreeList = 1024;
PyObject* g_free_moves[kMoveFreeList];
int g_free_count = 0;
#else
constexpr int kMoveFreeList = 0;
PyObject** g_free_moves = nullptr;
int g_free_count = 0;
#endif

// nardy.Move's deallocator: its slots and the memory. The generic one of a Python class
// (subtype_dealloc) looks for finalizers, weak references and a __dict__, none of which a Move
// has. A subclass of Move keeps the generic one, which ends by calling this one.
void move_dealloc(PyObject* o) {
  PyTypeObject* type = Py_TYPE(o);
  PyObject_GC_UnTrack(o);
  Py_CLEAR(slot_at(o, g.move_steps));
  Py_CLEAR(slot_at(o, g.move_variant));
  Py_CLEAR(slot_at(o, g.move_color));
  Py_CLEAR(slot_at(o, g.move_src));
  Py_CLEAR(slot_at(o, g.move_index));
  Py_CLEAR(slot_at(o, g.move_named));  // a reused object must not keep a named die
  if (type == g.move && g_free_count < kMoveFreeList) {  // a subclass's object is freed
    g_free_moves[g_free_count++] = o;
    return;
  }
  type->tp_free(o);
  Py_DECREF(type);
}

// A blank nardy.Move (slots empty, untracked), from the free list when it has one.
PyObject* new_move() {
  if (g_free_count > 0) {
    PyObject* o = g_free_moves[--g_free_count];
    Py_SET_REFCNT(o, 1);
    return o;
  }
  PyObject* o = g.move->tp_alloc(g.move, 0);
  if (o && PyObject_IS_GC(o)) PyObject_GC_UnTrack(o);
  return o;
}

// A new nardy.Move of move `i` of `legal` (a LegalMoves), printed as its colour plays in its
// variant; nullptr with a Python error set on failure. Its steps stay in the buffer until read
// (Move.__getattr__ asks `legal` for them).
PyObject* move_object(PyObject* legal, Py_ssize_t i);



Position from_words(const uint64_t w[4]) {
  Position p;
  p.us.w[0] = w[0];
  p.us.w[1] = w[1];
  p.them.w[0] = w[2];
  p.them.w[1] = w[3];
  return p;
}

PyObject* key_bytes(const Position& p) {
  const uint64_t w[4] = {p.us.w[0], p.us.w[1], p.them.w[0], p.them.w[1]};
  return PyBytes_FromStringAndSize(reinterpret_cast<const char*>(w), 32);
}

// Reads attribute `name` (fast: the slot at `offset` when `exact`), a new reference.
PyObject* read_slot(PyObject* o, bool exact, Py_ssize_t offset, const char* name) {
  if (exact && offset >= 0) {
    PyObject* v = slot_at(o, offset);
    if (v) {
      Py_INCREF(v);
      return v;
    }
  }
  return PyObject_GetAttrString(o, name);
}

Engine* engine_of(PyObject* engine_obj) {
  if (g.engine_info && Py_TYPE(engine_obj) == g.engine_info->type) {
    auto* inst = reinterpret_cast<py::detail::instance*>(engine_obj);
    if (inst->simple_layout && inst->simple_holder_constructed)
      return static_cast<Engine*>(inst->simple_value_holder[0]);
  }
  try {
    return py::handle(engine_obj).cast<Engine*>();
  } catch (const py::cast_error&) {
    nardy_py::set_error("Error", "the position's variant has no nardy engine");
    return nullptr;
  }
}

// ---- LegalMoves ---------------------------------------------------------------------------

inline LegalMovesObject* lm(PyObject* self) { return reinterpret_cast<LegalMovesObject*>(self); }

int lm_traverse(PyObject* self, visitproc visit, void* arg) {
  Py_VISIT(lm(self)->position);
  Py_VISIT(lm(self)->variant);
  Py_VISIT(lm(self)->engine);
  Py_VISIT(lm(self)->dice);
  Py_VISIT(Py_TYPE(self));
  return 0;
}

int lm_clear(PyObject* self) {
  Py_CLEAR(lm(self)->position);
  Py_CLEAR(lm(self)->variant);
  Py_CLEAR(lm(self)->engine);
  Py_CLEAR(lm(self)->dice);
  lm(self)->eng = nullptr;
  return 0;
}

void lm_dealloc(PyObject* self) {
  PyTypeObject* type = Py_TYPE(self);
  PyObject_GC_UnTrack(self);
  lm_clear(self);
  type->tp_free(self);
  Py_DECREF(type);
}

Py_ssize_t lm_len(PyObject* self) { return Py_SIZE(self); }

PyObject* move_object(PyObject* legal, Py_ssize_t i) {
  LegalMovesObject* s = lm(legal);
  PyObject* index = PyLong_FromSsize_t(i);
  if (!index) return nullptr;
  PyObject* obj = g.move->tp_dealloc == move_dealloc ? new_move() : g.move->tp_alloc(g.move, 0);
  if (!obj) {
    Py_DECREF(index);
    return nullptr;
  }
  Py_INCREF(legal);
  slot_at(obj, g.move_src) = legal;
  slot_at(obj, g.move_index) = index;
  Py_INCREF(s->variant);
  slot_at(obj, g.move_variant) = s->variant;
  slot_at(obj, g.move_color) = PyLong_FromLong(s->turn);
  // A Move refers to its LegalMoves, Steps and variant, never back to anything that refers to
  // it: no cycle, so the collector need not track it.
  if (PyObject_IS_GC(obj)) PyObject_GC_UnTrack(obj);
  return obj;
}

PyObject* lm_item(PyObject* self, Py_ssize_t i) {
  if (i < 0 || i >= Py_SIZE(self)) {
    PyErr_SetString(PyExc_IndexError, "LegalMoves index out of range");
    return nullptr;
  }
  return move_object(self, i);
}

PyObject* lm_subscript(PyObject* self, PyObject* key) {
  if (PyIndex_Check(key)) {
    Py_ssize_t i = PyNumber_AsSsize_t(key, PyExc_IndexError);
    if (i == -1 && PyErr_Occurred()) return nullptr;
    if (i < 0) i += Py_SIZE(self);
    return lm_item(self, i);
  }
  if (PySlice_Check(key)) {
    Py_ssize_t start, stop, step;
    if (PySlice_Unpack(key, &start, &stop, &step) < 0) return nullptr;
    const Py_ssize_t n = PySlice_AdjustIndices(Py_SIZE(self), &start, &stop, step);
    PyObject* out = PyList_New(n);
    if (!out) return nullptr;
    for (Py_ssize_t k = 0, i = start; k < n; ++k, i += step) {
      PyObject* m = lm_item(self, i);
      if (!m) {
        Py_DECREF(out);
        return nullptr;
      }
      PyList_SET_ITEM(out, k, m);
    }
    return out;
  }
  PyErr_Format(PyExc_TypeError, "LegalMoves indices must be integers or slices, not %s",
               Py_TYPE(key)->tp_name);
  return nullptr;
}

long find_result(const LegalMovesObject* s, const Position& p) {
  for (Py_ssize_t i = 0; i < Py_SIZE(s); ++i)
    if (s->moves[i].result == p) return static_cast<long>(i);
  return -1;
}

// Index of the legal move leading where `move` (anything with Move's _steps) leads, or -1;
// -2 with a Python error set.
long index_of(LegalMovesObject* s, PyObject* move) {
  if (!s->eng || !PyObject_TypeCheck(move, g.move)) return -1;
  // One roll's moves name no die: a move that names one (Acey-deucey's double after a 1-2) is
  // a move of the whole turn, never of this listing, wherever its steps lead.
  if (PyObject* named = slot_at(move, g.move_named)) {
    const int t = PyObject_IsTrue(named);
    if (t < 0) return -2;
    if (t) return -1;
  }
  PyObject* steps = slot_at(move, g.move_steps);
  if (!steps) {  // a listed move whose steps were never read: they are in its LegalMoves
    PyObject* src = slot_at(move, g.move_src);
    PyObject* idx = slot_at(move, g.move_index);
    if (!src || !idx || !PyObject_TypeCheck(src, g.base) || !PyLong_Check(idx)) return -1;
    const Py_ssize_t k = PyLong_AsSsize_t(idx);
    if (k < 0 || k >= Py_SIZE(src)) return -1;
    if (src == reinterpret_cast<PyObject*>(s)) return static_cast<long>(k);
    const Move& mv = lm(src)->moves[k];
    Position result;
    if (!s->eng->apply_steps(s->origin, mv.steps.data(), mv.n_steps, result)) return -1;
    return find_result(s, result);
  }
  if (!PyTuple_Check(steps)) return -1;
  const Py_ssize_t n = PyTuple_GET_SIZE(steps);
  if (n == 0 || n > kMaxSteps) return -1;
  Step st[kMaxSteps];
  for (Py_ssize_t k = 0; k < n; ++k) {
    PyObject* t = PyTuple_GET_ITEM(steps, k);
    if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) < 2) return -1;
    const long from = PyLong_AsLong(PyTuple_GET_ITEM(t, 0));
    const long to = PyLong_AsLong(PyTuple_GET_ITEM(t, 1));
    if (PyErr_Occurred()) return -2;
    // hit is read by Shlem only (hit out vs take prisoner on the same (from, to))
    const int hit = PyTuple_GET_SIZE(t) > 2 ? PyObject_IsTrue(PyTuple_GET_ITEM(t, 2)) : 0;
    if (hit < 0) return -2;
    if (from < 0 || from > kBar || to < kBearOffTo || to >= kPoints) return -1;
    st[k] = Step{int8_t(from), int8_t(to), uint8_t(hit)};
  }
  Position result;
  if (!s->eng->apply_steps(s->origin, st, int(n), result)) return -1;
  return find_result(s, result);
}

int lm_contains(PyObject* self, PyObject* move) {
  const long i = index_of(lm(self), move);
  return i == -2 ? -1 : (i >= 0 ? 1 : 0);
}

PyObject* lm_index_of(PyObject* self, PyObject* move) {
  const long i = index_of(lm(self), move);
  return i == -2 ? nullptr : PyLong_FromLong(i);
}

bool read_key(PyObject* key, Position& out) {
  if (!PyBytes_Check(key) || PyBytes_GET_SIZE(key) != 32) {
    PyErr_SetString(PyExc_TypeError, "a position key is 32 bytes");
    return false;
  }
  uint64_t w[4];
  std::memcpy(w, PyBytes_AS_STRING(key), 32);
  out = from_words(w);
  return true;
}

PyObject* lm_find(PyObject* self, PyObject* key) {
  Position p;
  if (!read_key(key, p)) return nullptr;
  return PyLong_FromLong(find_result(lm(self), p));
}

bool index_arg(PyObject* self, PyObject* arg, Py_ssize_t& i) {
  i = PyNumber_AsSsize_t(arg, PyExc_IndexError);
  if (i == -1 && PyErr_Occurred()) return false;
  if (i < 0) i += Py_SIZE(self);
  if (i < 0 || i >= Py_SIZE(self)) {
    PyErr_SetString(PyExc_IndexError, "LegalMoves index out of range");
    return false;
  }
  return true;
}

PyObject* lm_key(PyObject* self, PyObject* arg) {
  Py_ssize_t i;
  if (!index_arg(self, arg, i)) return nullptr;
  return key_bytes(lm(self)->moves[i].result);
}

PyObject* lm_keys(PyObject* self, PyObject*) {
  const Py_ssize_t n = Py_SIZE(self);
  PyObject* out = PyList_New(n);
  if (!out) return nullptr;
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* k = key_bytes(lm(self)->moves[i].result);
    if (!k) {
      Py_DECREF(out);
      return nullptr;
    }
    PyList_SET_ITEM(out, i, k);
  }
  return out;
}

PyObject* steps_tuple(const Move& m) { return steps_of(m); }

PyObject* lm_steps(PyObject* self, PyObject* arg) {
  Py_ssize_t i;
  if (!index_arg(self, arg, i)) return nullptr;
  return steps_tuple(lm(self)->moves[i]);
}

PyObject* lm_all_steps(PyObject* self, PyObject*) {
  const Py_ssize_t n = Py_SIZE(self);
  PyObject* out = PyList_New(n);
  if (!out) return nullptr;
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* t = steps_tuple(lm(self)->moves[i]);
    if (!t) {
      Py_DECREF(out);
      return nullptr;
    }
    PyList_SET_ITEM(out, i, t);
  }
  return out;
}

PyObject* lm_get_position(PyObject* self, void*) {
  PyObject* p = lm(self)->position ? lm(self)->position : Py_None;
  Py_INCREF(p);
  return p;
}

PyObject* lm_get_dice(PyObject* self, void*) {
  PyObject* d = lm(self)->dice ? lm(self)->dice : Py_None;
  Py_INCREF(d);
  return d;
}

// The iterator: one index into the buffer. (Only one slot per special method: a heap subclass
// would route a second C slot for the same name through a Python-level call.)
struct IterObject {
  PyObject_HEAD
  PyObject* seq;
  Py_ssize_t i;
};

PyTypeObject* g_iter_type = nullptr;

PyObject* lm_iter(PyObject* self) {
  IterObject* it = PyObject_GC_New(IterObject, g_iter_type);
  if (!it) return nullptr;
  Py_INCREF(self);
  it->seq = self;
  it->i = 0;
  PyObject_GC_Track(it);
  return reinterpret_cast<PyObject*>(it);
}

PyObject* iter_next(PyObject* o) {
  IterObject* it = reinterpret_cast<IterObject*>(o);
  if (!it->seq) return nullptr;
  if (it->i < Py_SIZE(it->seq)) {
    LegalMovesObject* s = lm(it->seq);
    (void)s;
    return move_object(it->seq, it->i++);
  }
  Py_CLEAR(it->seq);
  return nullptr;
}

PyObject* iter_length_hint(PyObject* o, PyObject*) {
  IterObject* it = reinterpret_cast<IterObject*>(o);
  return PyLong_FromSsize_t(it->seq ? Py_SIZE(it->seq) - it->i : 0);
}

int iter_traverse(PyObject* o, visitproc visit, void* arg) {
  Py_VISIT(reinterpret_cast<IterObject*>(o)->seq);
  Py_VISIT(Py_TYPE(o));
  return 0;
}

void iter_dealloc(PyObject* o) {
  PyTypeObject* type = Py_TYPE(o);
  PyObject_GC_UnTrack(o);
  Py_CLEAR(reinterpret_cast<IterObject*>(o)->seq);
  PyObject_GC_Del(o);
  Py_DECREF(type);
}

PyMethodDef iter_methods[] = {
    {"__length_hint__", iter_length_hint, METH_NOARGS, nullptr},
    {nullptr, nullptr, 0, nullptr}};

PyType_Slot iter_slots[] = {
    {Py_tp_dealloc, reinterpret_cast<void*>(iter_dealloc)},
    {Py_tp_traverse, reinterpret_cast<void*>(iter_traverse)},
    {Py_tp_iter, reinterpret_cast<void*>(PyObject_SelfIter)},
    {Py_tp_iternext, reinterpret_cast<void*>(iter_next)},
    {Py_tp_methods, iter_methods},
    {0, nullptr}};

PyType_Spec iter_spec = {"nardy._core.LegalMovesIterator", sizeof(IterObject), 0,
                         Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC, iter_slots};

PyMethodDef lm_methods[] = {
    {"index_of", lm_index_of, METH_O,
     "index_of($self, move, /)\n--\n\nIndex of the legal move leading where `move` leads, or -1."},
    {"find", lm_find, METH_O,
     "find($self, key, /)\n--\n\nIndex of the move leading to the core key `key` (mover's view, "
     "unswapped), or -1."},
    {"key", lm_key, METH_O,
     "key($self, index, /)\n--\n\nThe core key of move `index`'s result (mover's view, unswapped)."},
    {"keys", lm_keys, METH_NOARGS,
     "keys($self, /)\n--\n\nThe core keys of the results, in move order."},
    {"steps", lm_steps, METH_O,
     "steps($self, index, /)\n--\n\nThe steps of move `index` as a tuple of nardy.Step."},
    {"all_steps", lm_all_steps, METH_NOARGS,
     "all_steps($self, /)\n--\n\nThe steps of every move, in move order."},
    {nullptr, nullptr, 0, nullptr}};

PyGetSetDef lm_getset[] = {
    {"position", lm_get_position, nullptr, "The position these moves are played from.", nullptr},
    {"dice", lm_get_dice, nullptr, "The roll, as given.", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr}};

PyType_Slot lm_slots[] = {
    {Py_tp_dealloc, reinterpret_cast<void*>(lm_dealloc)},
    {Py_tp_traverse, reinterpret_cast<void*>(lm_traverse)},
    {Py_tp_clear, reinterpret_cast<void*>(lm_clear)},
    {Py_sq_length, reinterpret_cast<void*>(lm_len)},
    {Py_sq_contains, reinterpret_cast<void*>(lm_contains)},
    {Py_mp_subscript, reinterpret_cast<void*>(lm_subscript)},
    {Py_tp_iter, reinterpret_cast<void*>(lm_iter)},
    {Py_tp_methods, lm_methods},
    {Py_tp_getset, lm_getset},
    {Py_tp_doc, const_cast<char*>(
        "The core's side of nardy.LegalMoves: the result buffer of one enumeration.")},
    {0, nullptr}};

PyType_Spec lm_spec = {
    "nardy._core.LegalMovesBase", static_cast<int>(kHeaderSize), static_cast<int>(sizeof(Move)),
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC
#ifdef Py_TPFLAGS_DISALLOW_INSTANTIATION
        | Py_TPFLAGS_DISALLOW_INSTANTIATION
#endif
    ,
    lm_slots};

// ---- the entry point ----------------------------------------------------------------------

bool plain_die(PyObject* o, int& d) {
  if (!PyLong_CheckExact(o)) return false;
  int overflow = 0;
  const long v = PyLong_AsLongAndOverflow(o, &overflow);
  if (overflow || v < 1 || v > 6) return false;
  d = static_cast<int>(v);
  return true;
}

// Dice as two ints 1..6: the common exact tuple here, anything else through Python's check
// (which raises nardy.InvalidDiceError or returns the normalised pair). New reference.
PyObject* dice_of(PyObject* dice, int& d1, int& d2) {
  if (PyTuple_CheckExact(dice) && PyTuple_GET_SIZE(dice) == 2 &&
      plain_die(PyTuple_GET_ITEM(dice, 0), d1) && plain_die(PyTuple_GET_ITEM(dice, 1), d2)) {
    Py_INCREF(dice);
    return dice;
  }
  PyObject* pair = PyObject_CallOneArg(g.check_dice, dice);
  if (!pair) return nullptr;
  if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2 ||
      !plain_die(PyTuple_GET_ITEM(pair, 0), d1) || !plain_die(PyTuple_GET_ITEM(pair, 1), d2)) {
    Py_DECREF(pair);
    return nardy_py::set_error("InvalidDiceError", "dice must be a pair of integers from 1 to 6");
  }
  return pair;
}

// Position.legal_moves(self, dice): a method descriptor on nardy.Position.
PyObject* legal_moves(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs != 1) {
    PyErr_SetString(PyExc_TypeError, "legal_moves() takes exactly one argument (the dice)");
    return nullptr;
  }
  if (!g.legal) return nardy_py::set_error("Error", "nardy._core: LegalMoves is not registered");
  const bool exact = Py_TYPE(self) == g.position;
  int d1 = 0, d2 = 0;
  PyObject* dice = dice_of(args[0], d1, d2);
  if (!dice) return nullptr;
  PyObject* key = read_slot(self, exact, g.pos_key, "_key");
  PyObject* variant = key ? read_slot(self, exact, g.pos_variant, "_variant") : nullptr;
  PyObject* turn_obj = variant ? read_slot(self, exact, g.pos_turn, "_turn") : nullptr;
  PyObject* engine = nullptr;
  if (turn_obj)
    engine = PyObject_TypeCheck(variant, g.variant_base) && g.variant_engine >= 0 &&
                     slot_at(variant, g.variant_engine)
                 ? (Py_INCREF(slot_at(variant, g.variant_engine)), slot_at(variant, g.variant_engine))
                 : PyObject_GetAttrString(variant, "engine");
  Position origin;
  Engine* eng = nullptr;
  long turn = 0;
  bool ok = engine && read_key(key, origin) && (eng = engine_of(engine)) != nullptr;
  if (ok) {
    turn = PyLong_AsLong(turn_obj);
    ok = !(turn == -1 && PyErr_Occurred());
  }
  Py_XDECREF(key);
  Py_XDECREF(turn_obj);
  if (!ok) {
    Py_DECREF(dice);
    Py_XDECREF(variant);
    Py_XDECREF(engine);
    return nullptr;
  }
  thread_local MoveList list;
  eng->generate(origin, d1, d2, list);
  const Py_ssize_t n = static_cast<Py_ssize_t>(list.size());
  PyObject* obj = g.legal->tp_alloc(g.legal, n);
  if (!obj) {
    Py_DECREF(dice);
    Py_DECREF(variant);
    Py_DECREF(engine);
    return nullptr;
  }
  LegalMovesObject* s = lm(obj);
  Py_INCREF(self);
  s->position = self;
  s->variant = variant;
  s->engine = engine;
  s->dice = dice;
  s->eng = eng;
  s->origin = origin;
  s->turn = turn;
  if (n) std::memcpy(static_cast<void*>(s->moves), list.begin(), sizeof(Move) * size_t(n));
  return obj;
}

PyMethodDef legal_moves_def = {
    "legal_moves", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(legal_moves)),
    METH_FASTCALL,
    "legal_moves($self, dice, /)\n--\n\n"
    "Every legal complete move for the roll, one per resulting position, as a lazy\n"
    "nardy.LegalMoves (empty when the player cannot move: then pass_turn())."};

PyTypeObject* as_type(py::handle h, const char* what) {
  if (!PyType_Check(h.ptr())) throw py::type_error(std::string("expected the class ") + what);
  return reinterpret_cast<PyTypeObject*>(h.ptr());
}

}  // namespace

void register_moves(py::module_& m) {
  g_iter_type = reinterpret_cast<PyTypeObject*>(PyType_FromSpec(&iter_spec));
  if (!g_iter_type) throw py::error_already_set();
  PyObject* base = PyType_FromSpec(&lm_spec);
  if (!base) throw py::error_already_set();
  g.base = reinterpret_cast<PyTypeObject*>(base);
  m.add_object("LegalMovesBase", base);

  m.def("_register_moves", [](py::object legal, py::object move, py::object step,
                              py::object position, py::object variant, py::object check_dice) {
    PyTypeObject* lt = as_type(legal, "LegalMoves");
    if (!PyType_IsSubtype(lt, g.base))
      throw py::type_error("LegalMoves must subclass nardy._core.LegalMovesBase");
    if (lt->tp_basicsize != g.base->tp_basicsize)
      throw py::type_error("LegalMoves must declare __slots__ = ()");
    PyTypeObject* mt = as_type(move, "Move");
    PyTypeObject* pt = as_type(position, "Position");
    PyTypeObject* vt = as_type(variant, "Variant");
    const Py_ssize_t ms = member_offset(mt, "_steps"), mv = member_offset(mt, "_variant"),
                     mc = member_offset(mt, "_color"), msrc = member_offset(mt, "_src"),
                     midx = member_offset(mt, "_index"), mnamed = member_offset(mt, "_named");
    const Py_ssize_t pk = member_offset(pt, "_key"), pv = member_offset(pt, "_variant"),
                     pn = member_offset(pt, "_turn");
    const Py_ssize_t ve = member_offset(vt, "engine");
    for (PyObject*& st : g_steps) Py_CLEAR(st);
    while (g_free_count > 0) {  // objects of the class registered before
      PyObject* o = g_free_moves[--g_free_count];
      PyTypeObject* type = Py_TYPE(o);
      type->tp_free(o);
      Py_DECREF(type);
    }
    g.legal = reinterpret_cast<PyTypeObject*>(legal.release().ptr());
    g.move = reinterpret_cast<PyTypeObject*>(move.release().ptr());
    // Safe only while every slot of Move is cleared above: no __dict__, __weakref__ or __del__.
    unsigned long managed = 0;
#ifdef Py_TPFLAGS_MANAGED_DICT
    managed |= Py_TPFLAGS_MANAGED_DICT;
#endif
#ifdef Py_TPFLAGS_MANAGED_WEAKREF
    managed |= Py_TPFLAGS_MANAGED_WEAKREF;
#endif
    if (g.move->tp_dictoffset == 0 && g.move->tp_weaklistoffset == 0 && !g.move->tp_finalize &&
        !g.move->tp_del && !(g.move->tp_flags & managed))
      g.move->tp_dealloc = move_dealloc;
    g.step = step.release().ptr();
    g.position = reinterpret_cast<PyTypeObject*>(position.release().ptr());
    g.variant_base = reinterpret_cast<PyTypeObject*>(variant.release().ptr());
    g.check_dice = check_dice.release().ptr();
    g.move_steps = ms, g.move_variant = mv, g.move_color = mc;
    g.move_src = msrc, g.move_index = midx, g.move_named = mnamed;
    g.pos_key = pk, g.pos_variant = pv, g.pos_turn = pn;
    g.variant_engine = ve;
    g.engine_info = py::detail::get_type_info(typeid(Engine));
    PyObject* descr = PyDescr_NewMethod(g.position, &legal_moves_def);
    if (!descr) throw py::error_already_set();
    return py::reinterpret_steal<py::object>(descr);
  }, "Registers LegalMoves, Move, Step, Position, Variant and the dice check; returns the "
     "method descriptor Position.legal_moves.");
}
