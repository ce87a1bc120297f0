#include "floe/format/avro/schema_cache.h"

#include <utility>

namespace floe::avro {

Result<std::shared_ptr<const ParsedSchema>> ParseSchema(std::string_view writer_json,
                                                        std::shared_ptr<const Schema> reader) {
  auto parsed = std::make_shared<ParsedSchema>();
  auto writer = Schema::Parse(writer_json);
  if (!writer) return std::unexpected(std::move(writer.error().AddContext("header: avro.schema")));
  parsed->writer = std::move(*writer);
  auto resolved = ResolvedSchema::Make(parsed->writer, std::move(reader));
  if (!resolved) {
    return std::unexpected(std::move(resolved.error().AddContext("resolving the reader schema")));
  }
  parsed->resolved = std::move(*resolved);
  parsed->min_record_size = MinEncodedSize(parsed->writer->root());
  return parsed;
}

Result<std::shared_ptr<const ParsedSchema>> SchemaCache::Get(std::string_view writer_json) {
  {
    std::lock_guard lock(mutex_);
    if (auto it = entries_.find(writer_json); it != entries_.end()) return it->second;
  }
  // Parsed outside the lock, so that other threads keep finding their schemas meanwhile; when two
  // threads parse the same new schema at once, the first result stays.
  FLOE_ASSIGN_OR_RETURN(auto parsed, ParseSchema(writer_json, reader_));
  std::lock_guard lock(mutex_);
  if (entries_.size() < kMaxEntries) entries_.emplace(std::string(writer_json), parsed);
  return parsed;
}

}  // namespace floe::avro
