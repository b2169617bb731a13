#include "nardy/engine.hpp"

#include <stdexcept>

#include "nardy/registry.hpp"
#include "nardy/steps.hpp"

namespace nardy {

std::array<Roll, 21> rolls(bool ordered) {
  std::array<Roll, 21> r{};
  int k = 0;
  for (int a = 1; a <= 6; ++a)
    for (int b = a; b <= 6; ++b) r[k++] = Roll{b, a, (ordered && a != b) ? 2 : 1};
  return r;
}

Engine::Engine(Variant variant, Rules rules)
    : variant_(variant), rules_(rules), core_(variant_entry(variant).make_engine(rules)) {}

std::unique_ptr<StepTurn> Engine::step_turn() const { return core_->step_turn(); }

uint64_t Engine::perft(const Position& pos, int depth, bool ordered, CancelPoll* poll,
                       PerftTable* table) {
  if (table) table->bind(variant_, rules_, ordered);
  return core_->perft(pos, depth, ordered, poll, table);
}

std::vector<DivideEntry> Engine::divide(const Position& pos, int depth, bool ordered,
                                        CancelPoll* poll, PerftTable* table) {
  if (depth < 1) throw std::invalid_argument("divide depth must be >= 1");
  std::vector<DivideEntry> out;
  MoveList list;
  for (const Roll& r : rolls(ordered)) {
    generate(pos, r.d1, r.d2, list);
    uint64_t sub = 0;
    if (list.empty()) {
      sub = perft(pos.swapped(), depth - 1, ordered, poll, table);
    } else {
      std::vector<Position> children;
      children.reserve(list.size());
      for (size_t i = 0; i < list.size(); ++i) children.push_back(list[i].result.swapped());
      for (const Position& c : children) sub += perft(c, depth - 1, ordered, poll, table);
    }
    out.push_back(DivideEntry{r.d1, r.d2, sub * static_cast<uint64_t>(r.weight)});
  }
  return out;
}

int Engine::to_mover(int j) const noexcept { return variant_entry(variant_).to_mover(j); }

std::string validate(Variant variant, const SideArray& us, const SideArray& them) {
  return variant_entry(variant).validate(us, them);
}

}  // namespace nardy
