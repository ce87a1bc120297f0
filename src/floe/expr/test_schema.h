#pragma once

// The table schema the expr tests share.

#include "floe/spec/schema.h"

namespace floe::expr::testing {

inline SchemaPtr TestSchema() {
  using namespace floe::types;
  static const SchemaPtr kSchema = std::make_shared<const Schema>(std::vector<NestedField>{
      Required(1, "id", Long()),
      Optional(2, "data", String()),
      Optional(3, "f", Float()),
      Optional(4, "d", Double()),
      Optional(5, "ts", Timestamp()),
      Optional(6, "day", Date()),
      Optional(7, "i", Int()),
      Optional(8, "dec", Decimal(9, 2)),
      Optional(9, "tstz", TimestampTz()),
      Optional(10, "bin", Binary()),
  });
  return kSchema;
}

}  // namespace floe::expr::testing
