// The key acceptance test of table metadata: every table metadata file in the shared test data
// (written by Java, Rust, Go, C++, Python, Spark, Impala, DuckDB, PyIceberg, BigQuery...) is
// discovered, and each one either reads and writes back JSON-equal to the input, or is on the
// explicit list of invalid files below and fails with the error given there.

#include "floe/spec/table_metadata_json.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "floe/spec/partition_spec.h"
#include "floe/spec/schema.h"
#include "floe/spec/snapshot_json.h"
#include "floe/spec/sort_order.h"
#include "floe/spec/table_metadata_io.h"
#include "floe/testing/testing.h"

namespace floe {
namespace {

namespace fs = std::filesystem;
using testing::ReadFileOrDie;
using testing::TestDataDir;

// Files that are not valid table metadata, relative to the test data, with a part of the error
// each must give.
const std::map<std::string, std::string>& InvalidFiles() {
  static const auto* files = new std::map<std::string, std::string>{
      {"iceberg-java/core/src/test/resources/TableMetadataUnsupportedVersion.json",
       "format-version 42 is not supported"},
      {"iceberg-cpp/src/iceberg/test/resources/TableMetadataUnsupportedVersion.json",
       "format-version 42 is not supported"},
      // Written when Rust read only up to v2: a v3 table in v1's form, without `schemas`.
      {"iceberg-rust/crates/iceberg/testdata/table_metadata/TableMetadataUnsupportedVersion.json",
       "missing required field 'schemas'"},
      {"iceberg-java/core/src/test/resources/TableMetadataV2MissingSchemas.json",
       "missing required field 'schemas'"},
      {"iceberg-cpp/src/iceberg/test/resources/TableMetadataV2MissingSchemas.json",
       "missing required field 'schemas'"},
      {"iceberg-rust/crates/iceberg/testdata/table_metadata/TableMetadataV2MissingSchemas.json",
       "missing required field 'schemas'"},
      {"iceberg-java/core/src/test/resources/TableMetadataV2MissingPartitionSpecs.json",
       "missing required field 'partition-specs'"},
      {"iceberg-cpp/src/iceberg/test/resources/TableMetadataV2MissingPartitionSpecs.json",
       "missing required field 'partition-specs'"},
      {"iceberg-rust/crates/iceberg/testdata/table_metadata/"
       "TableMetadataV2MissingPartitionSpecs.json",
       "missing required field 'partition-specs'"},
      {"iceberg-java/core/src/test/resources/TableMetadataV2MissingSortOrder.json",
       "missing required field 'sort-orders'"},
      {"iceberg-cpp/src/iceberg/test/resources/TableMetadataV2MissingSortOrder.json",
       "missing required field 'sort-orders'"},
      {"iceberg-rust/crates/iceberg/testdata/table_metadata/TableMetadataV2MissingSortOrder.json",
       "missing required field 'sort-orders'"},
      {"iceberg-java/core/src/test/resources/TableMetadataV2CurrentSchemaNotFound.json",
       "'current-schema-id' is 2, which is not among 'schemas'"},
      // C++'s copy also lacks last-partition-id; the schema is checked first.
      {"iceberg-cpp/src/iceberg/test/resources/TableMetadataV2CurrentSchemaNotFound.json",
       "'current-schema-id' is 2, which is not among 'schemas'"},
      {"iceberg-rust/crates/iceberg/testdata/table_metadata/"
       "TableMetadataV2CurrentSchemaNotFound.json",
       "'current-schema-id' is 2, which is not among 'schemas'"},
      {"iceberg-java/core/src/test/resources/TableMetadataV2MissingLastPartitionId.json",
       "missing required field 'last-partition-id'"},
      {"iceberg-cpp/src/iceberg/test/resources/TableMetadataV2MissingLastPartitionId.json",
       "missing required field 'last-partition-id'"},
      {"iceberg-rust/crates/iceberg/testdata/table_metadata/"
       "TableMetadataV2MissingLastPartitionId.json",
       "missing required field 'last-partition-id'"},
      {"iceberg-java/core/src/test/resources/TableMetadataV1MissingSchemaType.json",
       "schema: missing required field 'type'"},
      {"iceberg-cpp/src/iceberg/test/resources/TableMetadataV1MissingSchemaType.json",
       "schema: missing required field 'type'"},
      {"iceberg-rust/crates/iceberg/testdata/table_metadata/TableMetadataV1NoValidSchema.json",
       "needs 'schema', or 'schemas' with 'current-schema-id'"},
      {"iceberg-go/table/testdata/TableMetadataV1NoValidSchema.json",
       "needs 'schema', or 'schemas' with 'current-schema-id'"},
      // JSON lines of data, not a metadata document.
      {"duckdb-iceberg/data/persistent/bad_data/bad_iceberg_metadata.json", "JSON"},
      // BigQuery's placeholder: properties only.
      {"duckdb-iceberg/data/persistent/big_query_error/metadata/v0.metadata.json",
       "missing required field 'format-version'"},
      // Snapshot id 9876543210123456789 does not fit a long.
      {"duckdb-iceberg/data/persistent/equality_delete_cross_partition/warehouse/ns/t/metadata/"
       "vfinal.metadata.json",
       "field 'current-snapshot-id' must be an integer"},
      {"duckdb-iceberg/data/persistent/equality_delete_extra_column/warehouse/ns/t/metadata/"
       "vfinal.metadata.json",
       "field 'current-snapshot-id' must be an integer"},
      // A v3 table without the next-row-id that v3 requires.
      {"duckdb-iceberg/data/persistent/timestamptz_ns/metadata/v1.metadata.json",
       "missing required field 'next-row-id'"},
  };
  return *files;
}

bool LooksLikeTableMetadata(const fs::path& path) {
  std::string name = path.filename().string();
  if (name.starts_with(".")) return false;  // Hadoop .crc sidecars
  std::string lower = name;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return lower.ends_with("metadata.json") || lower.ends_with("metadata.json.gz") ||
         (lower.ends_with(".json") && (lower.find("tablemetadata") != std::string::npos ||
                                       lower.find("table_metadata") != std::string::npos));
}

// Every candidate file, as a path relative to the test data.
std::vector<std::string> DiscoverMetadataFiles() {
  std::vector<std::string> out;
  for (const auto& entry : fs::recursive_directory_iterator(TestDataDir())) {
    if (!entry.is_regular_file() || !LooksLikeTableMetadata(entry.path())) continue;
    out.push_back(fs::relative(entry.path(), TestDataDir()).string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

Json Parsed(std::string_view text) {
  auto json = Json::Parse(text);
  EXPECT_TRUE(json.has_value());
  return json.value_or(Json());
}

void Erase(Json& object, std::string_view key) {
  if (!object.is_object()) return;
  auto& members = object.as_object();
  std::erase_if(members, [&](const auto& m) { return m.first == key; });
}

bool AbsentOrNull(const Json& object, std::string_view key) {
  const Json* v = object.Find(key);
  return v == nullptr || v->is_null();
}

bool IsEmptyCollection(const Json* v) {
  return v != nullptr &&
         ((v->is_array() && v->as_array().empty()) || (v->is_object() && v->as_object().empty()));
}

// Makes input and output comparable, applying only the differences the spec allows. Each rule
// says which part of the spec makes it a non-difference.
void Normalize(Json& input, Json& output) {
  const int64_t version = input.Find("format-version")->as_int();

  // Readers tolerate fields the spec does not define (e.g. "statistics-files" from old writers);
  // floe does not carry them.
  static const std::set<std::string, std::less<>> kKnown = {"format-version",
                                                            "table-uuid",
                                                            "location",
                                                            "last-sequence-number",
                                                            "last-updated-ms",
                                                            "last-column-id",
                                                            "schema",
                                                            "schemas",
                                                            "current-schema-id",
                                                            "partition-spec",
                                                            "partition-specs",
                                                            "default-spec-id",
                                                            "last-partition-id",
                                                            "properties",
                                                            "current-snapshot-id",
                                                            "snapshots",
                                                            "snapshot-log",
                                                            "metadata-log",
                                                            "sort-orders",
                                                            "default-sort-order-id",
                                                            "refs",
                                                            "statistics",
                                                            "partition-statistics",
                                                            "next-row-id",
                                                            "encryption-keys"};
  std::erase_if(input.as_object(), [&](const auto& m) { return !kKnown.contains(m.first); });

  // Fields the table's version leaves blank ("should be omitted") are not written.
  if (version == 1) Erase(input, "last-sequence-number");
  if (version >= 2) {
    Erase(input, "schema");
    Erase(input, "partition-spec");
  }
  if (version < 3) {
    Erase(input, "next-row-id");
    Erase(input, "encryption-keys");
  }

  // "Java writes -1 for no current snapshot ... other implementations can accept -1 as null"
  // (Appendix F): -1, null and absent all mean none.
  for (Json* j : {&input, &output}) {
    const Json* current = j->Find("current-snapshot-id");
    if (current != nullptr &&
        (current->is_null() || (current->is_int() && current->as_int() == -1))) {
      Erase(*j, "current-snapshot-id");
    }
  }

  // "There is always a main branch reference pointing to the current-snapshot-id even if the
  // refs map is null": a main branch derived that way is not a difference.
  if (const Json* current = input.Find("current-snapshot-id"); current != nullptr) {
    Json derived = Json::MakeObject();
    derived.Set("snapshot-id", current->as_int());
    derived.Set("type", "branch");
    const Json* in_refs = input.Find("refs");
    bool input_has_main = in_refs != nullptr && in_refs->Find("main") != nullptr;
    for (auto& [k, v] : output.as_object()) {
      if (k == "refs" && !input_has_main && v.Find("main") != nullptr &&
          *v.Find("main") == derived) {
        Erase(v, "main");
      }
    }
    // v1 leaves refs blank: a v1 file's main-only refs are written as current-snapshot-id alone.
    if (version == 1 && AbsentOrNull(output, "refs") && in_refs != nullptr &&
        in_refs->is_object() && in_refs->as_object().size() == 1 && input_has_main &&
        *in_refs->Find("main") == derived) {
      Erase(input, "refs");
    }
  }

  // Optional lists and maps: absent (or null) and empty say the same.
  for (std::string_view key : {"properties", "snapshots", "snapshot-log", "metadata-log",
                               "statistics", "partition-statistics", "refs", "encryption-keys"}) {
    const Json* in = input.Find(key);
    if ((in == nullptr || in->is_null()) && IsEmptyCollection(output.Find(key))) Erase(output, key);
    if (in != nullptr && in->is_null()) Erase(input, key);
    if (IsEmptyCollection(in) && output.Find(key) == nullptr) Erase(input, key);
  }

  if (version == 1) {
    // "schema" and "partition-spec" are deprecated copies: with "schemas" and "partition-specs"
    // present the spec says to read those instead, and floe writes the copies from them.
    if (input.Find("schemas") != nullptr && input.Find("current-schema-id") != nullptr) {
      Erase(input, "schema");
      Erase(output, "schema");
    }
    if (input.Find("partition-specs") != nullptr && input.Find("default-spec-id") != nullptr) {
      Erase(input, "partition-spec");
      Erase(output, "partition-spec");
    }
    // v1's optional fields that a reader derives from the required legacy ones (schema,
    // partition-spec) or from defaults (unsorted order, last-partition-id); floe writes them.
    for (std::string_view key :
         {"schema", "schemas", "current-schema-id", "partition-spec", "partition-specs",
          "default-spec-id", "last-partition-id", "sort-orders", "default-sort-order-id"}) {
      if (input.Find(key) == nullptr) Erase(output, key);
    }
    // A v1 `schema` may leave out its schema-id (0); floe always writes it.
    Json* schema = nullptr;
    for (auto& [k, v] : input.as_object()) {
      if (k == "schema") schema = &v;
    }
    if (schema != nullptr && schema->Find("schema-id") == nullptr) {
      for (auto& [k, v] : output.as_object()) {
        if (k == "schema") Erase(v, "schema-id");
      }
    }
  }

  // Schemas: identifier-field-ids is optional, an empty list says the same as none.
  auto drop_empty_identifiers = [](Json& schema) {
    if (IsEmptyCollection(schema.Find("identifier-field-ids"))) {
      Erase(schema, "identifier-field-ids");
    }
  };
  for (auto& [k, v] : input.as_object()) {
    if (k == "schema") drop_empty_identifiers(v);
    if (k == "schemas" && v.is_array()) {
      for (Json& schema : v.as_array()) drop_empty_identifiers(schema);
    }
  }

  // Snapshots: v1 leaves sequence numbers blank; row lineage and key ids are v3 fields; a summary
  // (required from v2) is written even where a reader defaulted it.
  Json* in_snapshots = nullptr;
  for (auto& [k, v] : input.as_object()) {
    if (k == "snapshots" && v.is_array()) in_snapshots = &v;
  }
  if (in_snapshots != nullptr) {
    for (Json& s : in_snapshots->as_array()) {
      if (!s.is_object()) continue;
      if (version == 1) Erase(s, "sequence-number");
      if (version < 3) {
        Erase(s, "first-row-id");
        Erase(s, "added-rows");
        Erase(s, "key-id");
      }
      for (std::string_view key : {"parent-snapshot-id", "schema-id"}) {
        if (const Json* v = s.Find(key); v != nullptr && v->is_null()) Erase(s, key);
      }
    }
  }
}

std::string DescribeDifference(const Json& input, const Json& output) {
  std::string out;
  for (const auto& [key, value] : input.as_object()) {
    const Json* other = output.Find(key);
    if (other == nullptr) {
      out += fmt::format("\n  '{}' missing from output", key);
    } else if (!(*other == value)) {
      out += fmt::format("\n  '{}' differs:\n    in:  {}\n    out: {}", key,
                         value.Dump().substr(0, 600), other->Dump().substr(0, 600));
    }
  }
  for (const auto& [key, value] : output.as_object()) {
    if (input.Find(key) == nullptr) out += fmt::format("\n  '{}' only in output", key);
  }
  return out;
}

// Checks one file; returns whether it was a valid table metadata file.
bool CheckFile(const std::string& relative, std::set<std::string>& invalid_seen) {
  SCOPED_TRACE(relative);
  std::string bytes = ReadFileOrDie(TestDataDir() / relative);
  auto text = DecompressMetadata(bytes);
  EXPECT_TRUE(text.has_value()) << text.error().ToString();
  if (!text) return false;
  // View metadata shares the naming; it is not table metadata.
  if (auto probe = Json::Parse(*text); probe && probe->Find("view-uuid") != nullptr) return false;

  auto metadata = TableMetadataFromJsonString(*text);
  auto invalid = InvalidFiles().find(relative);
  if (invalid != InvalidFiles().end()) {
    invalid_seen.insert(relative);
    EXPECT_FALSE(metadata.has_value()) << "an invalid file was accepted";
    if (!metadata) {
      EXPECT_NE(metadata.error().message().find(invalid->second), std::string::npos)
          << "expected an error containing \"" << invalid->second << "\", got "
          << metadata.error().ToString();
    }
    return false;
  }
  EXPECT_TRUE(metadata.has_value()) << metadata.error().ToString();
  if (!metadata) return false;

  Json output = TableMetadataToJson(**metadata);
  // Writing is stable: what floe writes reads back to the same JSON, with no exceptions.
  auto again = TableMetadataFromJson(output);
  EXPECT_TRUE(again.has_value()) << again.error().ToString();
  if (again) {
    EXPECT_EQ(TableMetadataToJson(**again), output);
  }

  Json input = Parsed(*text);
  Normalize(input, output);
  EXPECT_TRUE(input == output) << "re-serialized metadata differs:"
                               << DescribeDifference(input, output);
  return true;
}

TEST(TableMetadataCorpusTest, EveryFileRoundTripsOrFailsAsListed) {
  std::vector<std::string> files = DiscoverMetadataFiles();
  // The corpus holds well over 300 metadata files; far fewer means the test data is missing.
  ASSERT_GT(files.size(), 300u) << "test data not found under " << TestDataDir();
  size_t valid = 0;
  std::set<std::string> invalid_seen;
  for (const std::string& relative : files) {
    if (CheckFile(relative, invalid_seen)) ++valid;
  }
  for (const auto& [relative, error] : InvalidFiles()) {
    EXPECT_TRUE(invalid_seen.contains(relative)) << "listed invalid file not found: " << relative;
  }
  EXPECT_GT(valid, 280u);
}

}  // namespace
}  // namespace floe
