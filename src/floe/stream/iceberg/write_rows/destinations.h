#pragma once

// Where WriteRows sends each row (Beam's DynamicDestinations): a destination key per row, and for
// each key the table it names and how that table is created and written. Three forms:
//
//   DynamicDestinations::Fixed(ident)                       every row to one table
//   DynamicDestinations::Template("db.events_{region}_{kind}")
//                                                           the key filled from row fields; nested
//                                                           fields by dotted path
//                                                           ("{user.country}")
//   DynamicDestinations::Custom(key_of_row, describe)      any function of the row
//
// Template rule: a field that is missing from the batch, not a primitive, or null in a row is an
// error naming the field and the row (never a silent "null" table). Numbers, booleans and strings
// are written as text; dates, times and timestamps by their JSON text (batch/value.h).
//
// Destination options: partition_fields in Beam's form ("id", "bucket(id, 16)",
// "truncate(name, 4)", "year(ts)", "month(ts)", "day(ts)", "hour(ts)"), sort_fields ("id",
// "ts desc", "name asc nulls last"), table properties set at creation, equality fields (upsert),
// branch, and an optional schema to create the table with (else the first rows' columns).
//
// What can go wrong: a template with an unclosed or empty "{}", a key that is not a valid table
// identifier, malformed partition or sort fields (kInvalidArgument naming the text).

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "floe/batch/record_batch.h"
#include "floe/catalog/identifier.h"
#include "floe/spec/partition_spec.h"
#include "floe/spec/schema.h"
#include "floe/spec/sort_order.h"

namespace floe::stream {

struct Destination {
  catalog::TableIdentifier table;
  std::string branch = "main";
  std::optional<SchemaPtr> schema;            // to create the table with; else the rows' columns
  std::vector<std::string> partition_fields;  // "bucket(id, 16)", "day(ts)", "region"...
  std::vector<std::string> sort_fields;       // "id", "ts desc nulls last"...
  std::map<std::string, std::string> table_properties;  // applied when the table is created
  std::vector<std::string> equality_fields;             // upsert by these columns when set
  bool upsert = false;
};

// The destinations of a batch's rows: each distinct key once, in first-seen order, and per row the
// index of its key.
struct RowKeys {
  std::vector<std::string> keys;
  std::vector<uint32_t> key_of_row;
};

class DynamicDestinations {
 public:
  // The key of every row of a batch (keys[i] for row i).
  using KeyOfRows = std::function<Status(const RecordBatch& batch, std::vector<std::string>& keys)>;
  // The destination a key names (called once per key and writer subtask, then cached).
  using Describer = std::function<Result<Destination>(const std::string& key)>;

  static DynamicDestinations Fixed(catalog::TableIdentifier table, Destination defaults = {});
  // `defaults` gives every destination's options; its table is replaced by the parsed key.
  static Result<DynamicDestinations> Template(std::string pattern, Destination defaults = {});
  static DynamicDestinations Custom(KeyOfRows key_of_rows, Describer describe);

  Status KeysOf(const RecordBatch& batch, std::vector<std::string>& keys) const;
  // The same keys grouped: a template builds each distinct key's text once per batch, not per row.
  Status GroupsOf(const RecordBatch& batch, RowKeys& out) const { return group_rows_(batch, out); }
  Result<Destination> Describe(const std::string& key) const { return describe_(key); }
  // The fields the keys are made of (the template's), for early checks; empty for Custom.
  const std::vector<std::string>& key_fields() const { return key_fields_; }

 private:
  using GroupRows = std::function<Status(const RecordBatch& batch, RowKeys& out)>;
  GroupRows group_rows_;
  Describer describe_;
  std::vector<std::string> key_fields_;
};

// One partition field of Beam's form against a schema ("bucket(id, 16)" -> bucket[16] of id,
// named "id_bucket" as Iceberg names it).
Result<PartitionField> ParsePartitionField(std::string_view text, const Schema& schema,
                                           int32_t field_id);
Result<PartitionSpecPtr> ParsePartitionFields(const std::vector<std::string>& fields,
                                              const Schema& schema);
// "col [asc|desc] [nulls first|nulls last]".
Result<SortOrderPtr> ParseSortFields(const std::vector<std::string>& fields, const Schema& schema);

}  // namespace floe::stream
