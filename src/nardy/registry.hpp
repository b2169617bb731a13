// The variants the core knows, in one table (registry.cpp): what the shared code needs to
// know of a variant without naming it. A Variant is an index into the table.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "nardy/engine.hpp"
#include "nardy/position.hpp"
#include "nardy/rules.hpp"
#include "nardy/variants/traits.hpp"

namespace nardy {

struct VariantEntry {
  const char* key;                    // nardy._core.Variant's member name
  std::span<const VariantName> names; // the name first, then the aliases
  int checkers;                       // checkers a side
  bool has_bar;                       // slot 24 may hold checkers
  SpareBits spare;                    // what nibbles 10-15 of a side hold (position.hpp)
  SideArray start;                    // either side's starting array
  std::span<const char* const> kinds; // rollout result kinds
  int (*to_mover)(int j);
  std::string (*validate)(const SideArray& us, const SideArray& them);
  Side (*make_side)(const SideArray& side);
  SideArray (*side_array)(const Side& side);
  std::unique_ptr<EngineCore> (*make_engine)(const Rules& rules);
};

// Every variant, Variant(i) being variants()[i].
std::span<const VariantEntry> variants() noexcept;

// The entry of a variant; throws std::invalid_argument for an id outside the table.
const VariantEntry& variant_entry(Variant v);

// The variant answering to `name` or an alias, compared as nardy.find_variant compares them
// (case and '-', '_' or repeated blanks aside); `rules` gets the name's preset, if any.
bool find_variant(std::string_view name, Variant& v, Rules& rules);

// Every name and alias, comma-separated, for messages.
std::string variant_names();

}  // namespace nardy
