// A variant and its preset rules by the name Python uses, for the C++ unit tests.
#pragma once

#include <doctest/doctest.h>

#include "nardy/registry.hpp"

namespace nardy::testing {

struct Named {
  Variant variant;
  Rules rules;
};

inline Named named(const char* name) {
  Named n{};
  REQUIRE(find_variant(name, n.variant, n.rules));
  return n;
}

}  // namespace nardy::testing
