// The one list of variants. A new variant is its header under variants/ and one line in
// kVariants (plus its include).
#include "nardy/registry.hpp"

#include <stdexcept>

#include "nardy/engine_impl.hpp"
#include "nardy/variants/acey_deucey.hpp"
#include "nardy/variants/backgammon.hpp"
#include "nardy/variants/fevga.hpp"
#include "nardy/variants/gul_bara.hpp"
#include "nardy/variants/hypergammon.hpp"
#include "nardy/variants/long_nardy.hpp"
#include "nardy/variants/nackgammon.hpp"
#include "nardy/variants/plakoto.hpp"
#include "nardy/variants/portes.hpp"
#include "nardy/variants/shlem.hpp"
#include "nardy/variants/tavla.hpp"

namespace nardy {

namespace {

// The engine of V for the policy V::policy_index(rules) picks from V::Policies.
template <class V, class... P>
std::unique_ptr<EngineCore> make_engine(const Rules& rules, PolicyList<P...>) {
  const int wanted = V::policy_index(rules);
  std::unique_ptr<EngineCore> out;
  int i = 0;
  ((i++ == wanted ? (out = std::make_unique<EngineImpl<V, P>>(rules), 0) : 0), ...);
  if (!out) throw std::invalid_argument(std::string(V::kKey) + ": no policy for these rules");
  return out;
}

template <class V>
constexpr VariantEntry entry() {
  return VariantEntry{
      V::kKey,
      V::kNames,
      V::kCheckers,
      V::kHasBar,
      spare_bits<V>(),
      V::start(),
      V::kKinds,
      [](int j) { return V::to_mover(j); },
      &V::validate,
      [](const SideArray& a) { return V::make_side(a); },
      [](const Side& s) { return V::side_array(s); },
      [](const Rules& r) { return make_engine<V>(r, typename V::Policies{}); },
  };
}

// Variant(i) is the i-th line: the order is part of the Python module's interface.
const VariantEntry kVariants[] = {
    entry<Backgammon>(),
    entry<LongNardy>(),
    entry<Shlem>(),
    entry<Nackgammon>(),
    entry<Hypergammon>(),
    entry<Tavla>(),
    entry<Portes>(),
    entry<Plakoto>(),
    entry<Fevga>(),
    entry<GulBara>(),
    entry<AceyDeucey>(),
};

std::string normalised(std::string_view name) {
  std::string out;
  bool blank = false;
  for (const char c0 : name) {
    char c = c0;
    if (c == '-' || c == '_' || c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      blank = true;
      continue;
    }
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (blank && !out.empty()) out += ' ';
    blank = false;
    out += c;
  }
  return out;
}

}  // namespace

std::span<const VariantEntry> variants() noexcept { return kVariants; }

const VariantEntry& variant_entry(Variant v) {
  const size_t i = static_cast<size_t>(v);
  if (i >= std::size(kVariants))
    throw std::invalid_argument("unknown variant id " + std::to_string(i));
  return kVariants[i];
}

bool find_variant(std::string_view name, Variant& v, Rules& rules) {
  const std::string wanted = normalised(name);
  for (size_t i = 0; i < std::size(kVariants); ++i)
    for (const VariantName& n : kVariants[i].names)
      if (normalised(n.name) == wanted) {
        v = static_cast<Variant>(i);
        if (n.preset) n.preset(rules);
        return true;
      }
  return false;
}

std::string variant_names() {
  std::string out;
  for (const VariantEntry& e : kVariants)
    for (const VariantName& n : e.names) {
      if (!out.empty()) out += ", ";
      out += n.name;
    }
  return out;
}

}  // namespace nardy
