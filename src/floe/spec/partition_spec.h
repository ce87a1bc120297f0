#pragma once

// A partition spec (spec "Partitioning"): how a row's partition tuple is derived from its columns,
// one PartitionField per tuple position. The spec id and each field's id identify them across
// table metadata and manifests: the partition tuple in a manifest is a struct whose field ids are
// the partition field ids. Immutable; shared as PartitionSpecPtr. JSON lives in
// partition_spec_json.h, evolution rules in partition_evolution.h.
//
// What can go wrong: a spec that does not fit the schema (missing or non-primitive source, a
// transform that does not accept the source type, duplicate names or ids); Validate says which
// field and why.

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "floe/spec/transform.h"
#include "floe/spec/type.h"
#include "floe/util/error.h"

namespace floe {

class Literal;
class Schema;

struct PartitionField {
  // The source column ids: one for every transform the spec defines today; v3 allows several for
  // multi-argument transforms, which floe keeps (as unknown transforms) but cannot compute.
  std::vector<int32_t> source_ids;
  int32_t field_id = 0;
  std::string name;
  Transform transform = Transform::Identity();

  int32_t source_id() const { return source_ids.empty() ? -1 : source_ids.front(); }
  // "1000: ts_day: day(4)".
  std::string ToString() const;
  friend bool operator==(const PartitionField& a, const PartitionField& b) = default;
};

class PartitionSpec;
using PartitionSpecPtr = std::shared_ptr<const PartitionSpec>;

class PartitionSpec {
 public:
  static constexpr int32_t kInitialSpecId = 0;
  // Partition field ids start here (the reference implementation's PARTITION_DATA_ID_START); an
  // unpartitioned table's last assigned partition id is kFirstFieldId - 1.
  static constexpr int32_t kFirstFieldId = 1000;

  PartitionSpec(int32_t spec_id, std::vector<PartitionField> fields);
  // The unpartitioned spec with id 0.
  static const PartitionSpecPtr& Unpartitioned();
  // Builds a spec and checks it with Validate.
  static Result<PartitionSpecPtr> Make(const Schema& schema, int32_t spec_id,
                                       std::vector<PartitionField> fields);

  int32_t spec_id() const { return spec_id_; }
  std::span<const PartitionField> fields() const { return fields_; }
  // No fields, or only void ones (a v1 table whose partition fields were all dropped).
  bool is_unpartitioned() const;
  // The highest field id, or kFirstFieldId - 1 for a spec without fields.
  int32_t last_assigned_field_id() const;
  const PartitionField* FieldById(int32_t field_id) const;
  std::vector<const PartitionField*> FieldsBySourceId(int32_t source_id) const;

  // For a spec floe creates or evolves: field ids and names unique and non-empty; every source
  // column exists (a void field's may be gone), is primitive and not inside a list or map, and is
  // accepted by the transform; multi-argument fields and unknown transforms refused (writers must
  // not use them); a name equal to a schema column only for an identity field of that column; at
  // most one field per source and transform, and at most one time transform (year, month, day,
  // hour) per source.
  Status Validate(const Schema& schema) const;
  // For a spec read from table metadata, written by any engine at any time: field ids and names
  // unique; sources that still exist are primitive, outside lists and maps and accepted by known
  // transforms. Dropped sources, unknown transforms and name clashes are allowed.
  Status ValidateExisting(const Schema& schema) const;

  // The struct of partition tuples: one optional field per partition field, with the partition
  // field's id and name and the transform's result type: string for an unknown transform (as the
  // reference implementation has it), the v3 unknown type when the source column was dropped.
  // Manifest readers should still trust the partition schema stored in each manifest. Errors when
  // a transform does not accept its existing source.
  Result<std::shared_ptr<const StructType>> PartitionType(const Schema& schema) const;

  // The partition's relative directory, "ts_day=2026-01-01/category=a%2Fb": each field's name and
  // the human string of its value (Transform::ToHumanString), both URL-encoded as Iceberg Java
  // does; null is "null". values holds the transformed values, one per field. Errors when the
  // count differs.
  Result<std::string> PartitionPath(std::span<const Literal> values) const;

  // Spec equivalence ("Partitioning"): as many fields, each with the same source ids, transform and
  // name; spec and field ids are not compared.
  bool CompatibleWith(const PartitionSpec& other) const;

  // "[\n  1000: ts_day: day(4)\n]", "[]" when unpartitioned.
  std::string ToString() const;
  friend bool operator==(const PartitionSpec& a, const PartitionSpec& b) {
    return a.spec_id_ == b.spec_id_ && a.fields_ == b.fields_;
  }

 private:
  Status ValidateFields(const Schema& schema, bool strict) const;

  int32_t spec_id_;
  std::vector<PartitionField> fields_;
};

}  // namespace floe
