#pragma once

// Writer schemas of Avro container files, parsed and resolved once for many files written with the
// same schema (the manifests of a table, read by one scan planning). Parsing a manifest's schema
// and resolving it costs as much as decoding hundreds of its entries, and a planning run opens a
// thousand manifests that nearly always share one schema. Entries are keyed by the schema's JSON
// text as the header holds it and resolved against the cache's reader schema. Thread-safe. Holds at
// most kMaxEntries schemas; files with other schemas are parsed as if there were no cache, so
// input cannot grow it without bound. Parse errors are returned, never cached.

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "floe/format/avro/read_plan.h"
#include "floe/format/avro/schema.h"
#include "floe/util/error.h"

namespace floe::avro {

struct ParsedSchema {
  std::shared_ptr<const Schema> writer;
  std::shared_ptr<const ResolvedSchema> resolved;  // writer against the reader schema
  size_t min_record_size = 0;                      // MinEncodedSize of the writer's root
};

// Parses and resolves a writer schema without a cache.
Result<std::shared_ptr<const ParsedSchema>> ParseSchema(std::string_view writer_json,
                                                        std::shared_ptr<const Schema> reader);

class SchemaCache {
 public:
  static constexpr size_t kMaxEntries = 64;

  // reader: the schema files are read as (null: as written).
  explicit SchemaCache(std::shared_ptr<const Schema> reader = nullptr)
      : reader_(std::move(reader)) {}

  const std::shared_ptr<const Schema>& reader() const { return reader_; }

  Result<std::shared_ptr<const ParsedSchema>> Get(std::string_view writer_json);

 private:
  std::shared_ptr<const Schema> reader_;
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<const ParsedSchema>, std::less<>> entries_;
};

}  // namespace floe::avro
