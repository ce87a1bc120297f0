#include "floe/manifest/manifest_reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstring>
#include <string_view>

#include "floe/format/avro/container.h"
#include "floe/format/avro/datum_io.h"
#include "floe/format/avro/encoding.h"
#include "floe/format/avro/read_plan.h"
#include "floe/format/avro/schema.h"
#include "floe/format/avro/schema_cache.h"
#include "floe/format/compression/inflater.h"
#include "floe/io/file_io.h"
#include "floe/manifest/cursor_internal.h"
#include "floe/manifest/manifest_schema.h"
#include "floe/spec/literal.h"
#include "floe/util/uuid.h"

namespace floe::manifest {
namespace {

using avro::Decoder;
using avro::Node;

// Iceberg's field ids for writers that left them out of the Avro schema: the spec's names.
struct NamedId {
  std::string_view name;
  int32_t id;
};
constexpr NamedId kEntryNames[] = {{"status", 0},
                                   {"snapshot_id", 1},
                                   {"data_file", 2},
                                   {"sequence_number", 3},
                                   {"file_sequence_number", 4}};
constexpr NamedId kDataFileNames[] = {{"content", 134},           {"file_path", 100},
                                      {"file_format", 101},       {"partition", 102},
                                      {"record_count", 103},      {"file_size_in_bytes", 104},
                                      {"column_sizes", 108},      {"value_counts", 109},
                                      {"null_value_counts", 110}, {"nan_value_counts", 137},
                                      {"lower_bounds", 125},      {"upper_bounds", 128},
                                      {"key_metadata", 131},      {"split_offsets", 132},
                                      {"equality_ids", 135},      {"sort_order_id", 140},
                                      {"first_row_id", 142},      {"referenced_data_file", 143},
                                      {"content_offset", 144},    {"content_size_in_bytes", 145}};
constexpr NamedId kManifestFileNames[] = {{"manifest_path", 500},
                                          {"manifest_length", 501},
                                          {"partition_spec_id", 502},
                                          {"added_snapshot_id", 503},
                                          {"added_files_count", 504},
                                          {"existing_files_count", 505},
                                          {"deleted_files_count", 506},
                                          {"partitions", 507},
                                          {"added_rows_count", 512},
                                          {"existing_rows_count", 513},
                                          {"deleted_rows_count", 514},
                                          {"sequence_number", 515},
                                          {"min_sequence_number", 516},
                                          {"content", 517},
                                          {"key_metadata", 519},
                                          {"first_row_id", 520},
                                          {"added_data_files_count", 504},
                                          {"existing_data_files_count", 505},
                                          {"deleted_data_files_count", 506}};
constexpr NamedId kSummaryNames[] = {
    {"contains_null", 509}, {"contains_nan", 518}, {"lower_bound", 510}, {"upper_bound", 511}};

template <size_t N>
int32_t IdOf(const avro::Field& field, const NamedId (&names)[N]) {
  if (field.field_id) return *field.field_id;
  for (const NamedId& n : names) {
    if (n.name == field.name) return n.id;
  }
  return -1;
}

// A value as its writer encoded it: either plain or a union of null and one type.
struct Slot {
  const Node* node = nullptr;  // the value's type (the non-null branch)
  int64_t null_branch = -1;    // -1: not a union
  int64_t value_branch = 0;
};

Result<Slot> MakeSlot(const Node* node) {
  Slot slot;
  if (node->type != avro::Type::kUnion) {
    slot.node = node;
    return slot;
  }
  auto null_branch = node->NullBranch();
  if (!null_branch || node->branches.size() != 2) {
    return Unsupported("unions other than [null, T] are not manifest fields");
  }
  slot.null_branch = static_cast<int64_t>(*null_branch);
  slot.value_branch = 1 - slot.null_branch;
  slot.node = node->branches[static_cast<size_t>(slot.value_branch)];
  return slot;
}

enum class Target : uint8_t {
  kSkip,
  // manifest_entry
  kStatus,
  kSnapshotId,
  kSequenceNumber,
  kFileSequenceNumber,
  kDataFile,
  // data_file
  kContent,
  kFilePath,
  kFileFormat,
  kPartition,
  kRecordCount,
  kFileSize,
  kColumnSizes,
  kValueCounts,
  kNullCounts,
  kNanCounts,
  kLowerBounds,
  kUpperBounds,
  kKeyMetadata,
  kSplitOffsets,
  kEqualityIds,
  kSortOrderId,
  kFirstRowId,
  kReferencedDataFile,
  kContentOffset,
  kContentSize,
  kCount,
};

Target EntryTarget(int32_t id) {
  switch (id) {
    case 0:
      return Target::kStatus;
    case 1:
      return Target::kSnapshotId;
    case 2:
      return Target::kDataFile;
    case 3:
      return Target::kSequenceNumber;
    case 4:
      return Target::kFileSequenceNumber;
    default:
      return Target::kSkip;
  }
}

Target DataFileTarget(int32_t id) {
  switch (id) {
    case 134:
      return Target::kContent;
    case 100:
      return Target::kFilePath;
    case 101:
      return Target::kFileFormat;
    case 102:
      return Target::kPartition;
    case 103:
      return Target::kRecordCount;
    case 104:
      return Target::kFileSize;
    case 108:
      return Target::kColumnSizes;
    case 109:
      return Target::kValueCounts;
    case 110:
      return Target::kNullCounts;
    case 137:
      return Target::kNanCounts;
    case 125:
      return Target::kLowerBounds;
    case 128:
      return Target::kUpperBounds;
    case 131:
      return Target::kKeyMetadata;
    case 132:
      return Target::kSplitOffsets;
    case 135:
      return Target::kEqualityIds;
    case 140:
      return Target::kSortOrderId;
    case 142:
      return Target::kFirstRowId;
    case 143:
      return Target::kReferencedDataFile;
    case 144:
      return Target::kContentOffset;
    case 145:
      return Target::kContentSize;
    default:
      return Target::kSkip;
  }
}

struct Step {
  Target target = Target::kSkip;
  Slot slot;
  const Node* writer = nullptr;  // the field's whole type, for skipping
  // Maps (arrays of key/value records): the item record, possibly in a union with null (as
  // BigQuery writes), its key and value, which may be optional too, and their order.
  Slot item;
  Slot key;
  Slot value;
  size_t item_min_size = 1;
  bool key_first = true;
  // Lists.
  const Node* element = nullptr;
  // Partition fields.
  TypePtr type;
};

bool IsIntegral(const Node* node) {
  return node->type == avro::Type::kInt || node->type == avro::Type::kLong;
}
bool IsBinary(const Node* node) {
  return node->type == avro::Type::kBytes || node->type == avro::Type::kString;
}

}  // namespace

// The compiled reading plan for one writer schema.
class EntryPlan {
 public:
  static Result<std::unique_ptr<EntryPlan>> Make(const Node& root);

  // Errors are left in the cursor.
  // stats: the field ids whose column statistics to keep (nullptr: all).
  void Decode(Cursor& c, ManifestEntry& out, const std::vector<int32_t>* stats) const;

  std::shared_ptr<const StructType> partition_type;
  bool has_sequence_numbers = false;

 private:
  void DecodeDataFile(Cursor& c, DataFile& out, const std::vector<int32_t>* stats) const;
  void DecodePartition(Cursor& c, std::vector<Literal>& out) const;
  static void ResetAbsent(DataFile& out, const std::vector<Target>& absent);

  std::vector<Step> entry_;
  std::vector<Step> data_file_;
  std::vector<Step> partition_;
  std::vector<Target> absent_;  // data_file targets the writer does not have
};

namespace {

Status CheckPlain(const Step& step, const avro::Field& field) {
  const Node* n = step.slot.node;
  bool ok = true;
  switch (step.target) {
    case Target::kStatus:
    case Target::kSnapshotId:
    case Target::kSequenceNumber:
    case Target::kFileSequenceNumber:
    case Target::kContent:
    case Target::kRecordCount:
    case Target::kFileSize:
    case Target::kSortOrderId:
    case Target::kFirstRowId:
    case Target::kContentOffset:
    case Target::kContentSize:
      ok = IsIntegral(n);
      break;
    case Target::kFilePath:
    case Target::kFileFormat:
    case Target::kKeyMetadata:
    case Target::kReferencedDataFile:
      ok = IsBinary(n) || n->type == avro::Type::kFixed;
      break;
    case Target::kDataFile:
    case Target::kPartition:
      ok = n->type == avro::Type::kRecord;
      break;
    case Target::kSplitOffsets:
    case Target::kEqualityIds:
      ok = n->type == avro::Type::kArray && IsIntegral(n->items);
      break;
    case Target::kColumnSizes:
    case Target::kValueCounts:
    case Target::kNullCounts:
    case Target::kNanCounts:
    case Target::kLowerBounds:
    case Target::kUpperBounds:
      if (n->type != avro::Type::kArray) {
        ok = false;
        break;
      }
      if (auto item = MakeSlot(n->items)) {
        ok = item->node->type == avro::Type::kRecord && item->node->fields.size() == 2;
      } else {
        ok = false;
      }
      break;
    default:
      break;
  }
  if (!ok) {
    return InvalidArgument("manifest field '{}' has the unexpected Avro type {}", field.name,
                           avro::TypeName(n->type));
  }
  return Ok();
}

Result<Step> MakeStep(Target target, const avro::Field& field) {
  Step step;
  step.writer = field.type;
  step.target = target;
  if (target == Target::kSkip) return step;
  auto slot = MakeSlot(field.type);
  if (!slot) {
    // Not a shape Iceberg writes for this field: skip it rather than fail the file.
    step.target = Target::kSkip;
    return step;
  }
  step.slot = *slot;
  FLOE_RETURN_IF_ERROR(CheckPlain(step, field));
  switch (target) {
    case Target::kColumnSizes:
    case Target::kValueCounts:
    case Target::kNullCounts:
    case Target::kNanCounts:
    case Target::kLowerBounds:
    case Target::kUpperBounds: {
      FLOE_ASSIGN_OR_RETURN(step.item, MakeSlot(step.slot.node->items));
      const auto& f = step.item.node->fields;
      // The key is the field named "key"; the other is the value.
      step.key_first = !(f[1].name == "key");
      auto key = MakeSlot(f[step.key_first ? 0 : 1].type);
      auto value = MakeSlot(f[step.key_first ? 1 : 0].type);
      bool bounds = target == Target::kLowerBounds || target == Target::kUpperBounds;
      if (!key || !value || !IsIntegral(key->node) ||
          (bounds ? !IsBinary(value->node) : !IsIntegral(value->node))) {
        return InvalidArgument("manifest map '{}' has unexpected key or value types", field.name);
      }
      step.key = *key;
      step.value = *value;
      step.item_min_size = std::max<size_t>(1, avro::MinEncodedSize(*step.slot.node->items));
      break;
    }
    case Target::kSplitOffsets:
    case Target::kEqualityIds:
      step.element = step.slot.node->items;
      break;
    default:
      break;
  }
  return step;
}

// Reads the union index of an optional slot: true when a value follows.
[[gnu::always_inline]] inline bool Present(Cursor& c, const Slot& slot) {
  if (slot.null_branch < 0) return true;
  int64_t branch = c.Long();
  if (branch == slot.value_branch) return true;
  if (branch != slot.null_branch) c.Fail("union branch out of range");
  return false;
}

inline int64_t ReadIntegral(Cursor& c, const Node* node) {
  return node->type == avro::Type::kLong ? c.Long() : c.Int();
}

inline std::string_view ReadBinary(Cursor& c, const Node* node) {
  if (node->type == avro::Type::kFixed) return c.Fixed(static_cast<size_t>(node->fixed_size));
  return c.Bytes();
}

[[gnu::always_inline]] inline std::optional<int64_t> ReadOptionalIntegral(Cursor& c,
                                                                          const Slot& slot) {
  if (!Present(c, slot)) return std::nullopt;
  return ReadIntegral(c, slot.node);
}

inline int32_t FieldId(Cursor& c, int64_t v) {
  if (v < INT32_MIN || v > INT32_MAX) return static_cast<int32_t>(c.Fail("id out of range"));
  return static_cast<int32_t>(v);
}

// Whether a column's statistics are kept: keep lists the field ids, nullptr keeps all.
inline bool Kept(const std::vector<int32_t>* keep, int32_t id) {
  return keep == nullptr || std::find(keep->begin(), keep->end(), id) != keep->end();
}

void ReadCountMap(Cursor& c, const Step& step, CountMap& out, const std::vector<int32_t>* keep) {
  out.clear();
  if (!Present(c, step.slot)) return;
  // Iceberg's own shape (plain int keys and long values) takes the tight loop.
  const bool plain = step.item.null_branch < 0 && step.key.null_branch < 0 &&
                     step.value.null_branch < 0 && step.key_first &&
                     step.key.node->type == avro::Type::kInt &&
                     step.value.node->type == avro::Type::kLong;
  while (int64_t count = c.BlockCount(step.item_min_size)) {
    if (plain && keep != nullptr && keep->empty()) {
      c.SkipVarints(2 * count);  // a key and a value per item
      continue;
    }
    if (plain && keep != nullptr) {
      for (int64_t i = 0; i < count; ++i) {
        int32_t k = c.Int();
        int64_t v = c.Long();
        if (Kept(keep, k)) out.emplace_back(k, v);
      }
      continue;
    }
    if (plain) {
      size_t base = out.size();
      out.resize(base + static_cast<size_t>(count));
      auto* dst = out.data() + base;
      for (int64_t i = 0; i < count; ++i) {
        dst[i].first = c.Int();
        dst[i].second = c.Long();
      }
      continue;
    }
    for (int64_t i = 0; i < count; ++i) {
      if (!Present(c, step.item)) continue;
      std::optional<int64_t> k, v;
      if (step.key_first) {
        k = ReadOptionalIntegral(c, step.key);
        v = ReadOptionalIntegral(c, step.value);
      } else {
        v = ReadOptionalIntegral(c, step.value);
        k = ReadOptionalIntegral(c, step.key);
      }
      if (!k || !v) continue;  // a pair with a null side says nothing
      int32_t id = FieldId(c, *k);
      if (Kept(keep, id)) out.emplace_back(id, *v);
    }
  }
}

// Copies a bound into a string kept from the previous entry; bounds are short, and a call to
// memcpy per bound costs more than the bytes.
void ReadBoundMap(Cursor& c, const Step& step, BoundMap& out, const std::vector<int32_t>* keep) {
  size_t n = 0;
  const bool plain = step.item.null_branch < 0 && step.key.null_branch < 0 &&
                     step.value.null_branch < 0 && step.key_first &&
                     step.key.node->type == avro::Type::kInt &&
                     step.value.node->type == avro::Type::kBytes;
  if (Present(c, step.slot)) {
    while (int64_t count = c.BlockCount(step.item_min_size)) {
      if (plain && keep != nullptr && keep->empty()) {
        c.SkipKeyedBytes(count);
        continue;
      }
      if (plain) {
        if (out.size() < n + static_cast<size_t>(count)) out.resize(n + static_cast<size_t>(count));
        for (int64_t i = 0; i < count; ++i) {
          int32_t k = c.Int();
          std::string_view v = c.Bytes();
          if (!Kept(keep, k)) continue;
          out[n].first = k;
          out[n].second.assign(v);
          ++n;
        }
        continue;
      }
      for (int64_t i = 0; i < count; ++i) {
        if (!Present(c, step.item)) continue;
        std::optional<int64_t> key;
        std::string_view v;
        bool has_value = true;
        if (step.key_first) {
          key = ReadOptionalIntegral(c, step.key);
          has_value = Present(c, step.value);
          if (has_value) v = ReadBinary(c, step.value.node);
        } else {
          has_value = Present(c, step.value);
          if (has_value) v = ReadBinary(c, step.value.node);
          key = ReadOptionalIntegral(c, step.key);
        }
        if (!key || !has_value) continue;
        int32_t k = FieldId(c, *key);
        if (!Kept(keep, k)) continue;
        // Reuse the strings of the previous entry: most bounds fit in the ones already there.
        if (n < out.size()) {
          out[n].first = k;
          out[n].second.assign(v);
        } else {
          out.emplace_back(k, std::string(v));
        }
        ++n;
      }
    }
  }
  out.resize(n);
}

template <typename T>
void ReadList(Cursor& c, const Step& step, std::vector<T>& out) {
  out.clear();
  if (!Present(c, step.slot)) return;
  while (int64_t count = c.BlockCount(1)) {
    out.reserve(out.size() + static_cast<size_t>(count));
    for (int64_t i = 0; i < count; ++i) {
      int64_t v = ReadIntegral(c, step.element);
      if constexpr (sizeof(T) == 4) {
        out.push_back(FieldId(c, v));
      } else {
        out.push_back(v);
      }
    }
  }
}

void ReadOptionalString(Cursor& c, const Slot& slot, std::optional<std::string>& out) {
  if (!Present(c, slot)) {
    out.reset();
    return;
  }
  std::string_view v = ReadBinary(c, slot.node);
  if (out) {
    out->assign(v);
  } else {
    out.emplace(v);
  }
}

Literal ReadPartitionValue(Cursor& c, const Step& step) {
  if (!Present(c, step.slot) || step.slot.node->type == avro::Type::kNull) {
    return Literal::Null(step.type);
  }
  const Node* n = step.slot.node;
  switch (step.type->id()) {
    case TypeId::kBoolean:
      return Literal::Boolean(c.Boolean());
    case TypeId::kInt:
      return Literal::Int(c.Int());
    case TypeId::kDate:
      return Literal::Date(c.Int());
    case TypeId::kLong:
      return Literal::Long(ReadIntegral(c, n));
    case TypeId::kTime:
      return Literal::Time(ReadIntegral(c, n));
    case TypeId::kTimestamp:
      return Literal::Timestamp(ReadIntegral(c, n));
    case TypeId::kTimestampTz:
      return Literal::TimestampTz(ReadIntegral(c, n));
    case TypeId::kTimestampNs:
      return Literal::TimestampNs(ReadIntegral(c, n));
    case TypeId::kTimestampTzNs:
      return Literal::TimestampTzNs(ReadIntegral(c, n));
    case TypeId::kFloat:
      return Literal::Float(c.Float());
    case TypeId::kDouble:
      return Literal::Double(n->type == avro::Type::kFloat ? c.Float() : c.Double());
    case TypeId::kString:
      return Literal::String(std::string(c.Bytes()));
    case TypeId::kBinary:
      return Literal::Binary(std::string(c.Bytes()));
    case TypeId::kFixed:
      return Literal::Fixed(std::string(ReadBinary(c, n)));
    case TypeId::kUuid: {
      std::string_view v = ReadBinary(c, n);
      if (n->type == avro::Type::kString) {
        Result<std::string> bytes = ParseUuid(v);
        if (!bytes) {
          c.Fail("bad UUID text");
          return Literal::Null(step.type);
        }
        return Literal::Uuid(std::move(*bytes));
      }
      return Literal::Uuid(std::string(v));
    }
    case TypeId::kDecimal: {
      std::string_view v = ReadBinary(c, n);
      if (v.size() > 16) {
        c.Fail("decimal longer than 16 bytes");
        return Literal::Null(step.type);
      }
      unsigned __int128 value = 0;
      if (!v.empty() && (static_cast<uint8_t>(v[0]) & 0x80)) value = ~value;
      for (char b : v) value = (value << 8) | static_cast<uint8_t>(b);
      const auto& p = static_cast<const PrimitiveType&>(*step.type);
      return Literal::Decimal(static_cast<int128_t>(value), p.precision(), p.scale());
    }
    default:
      // EntryPlan::Make admits only the types above.
      c.Fail("unsupported partition type");
      return Literal::Null(step.type);
  }
}

// Skips a value the plan does not read, with the generic Avro skipper.
void Skip(Cursor& c, const Node& writer) {
  if (!c.ok()) return;
  Decoder d(std::span(reinterpret_cast<const std::byte*>(c.here()), c.remaining()), c.offset());
  if (!avro::SkipValue(writer, d)) {
    c.Fail("bad value in a skipped field");
    return;
  }
  c.Advance(d.position());
}

}  // namespace

Result<std::unique_ptr<EntryPlan>> EntryPlan::Make(const Node& root) {
  if (root.type != avro::Type::kRecord) {
    return InvalidArgument("a manifest holds records, not {}", avro::TypeName(root.type));
  }
  auto plan = std::make_unique<EntryPlan>();
  const Node* data_file = nullptr;
  for (const avro::Field& field : root.fields) {
    Target target = EntryTarget(IdOf(field, kEntryNames));
    FLOE_ASSIGN_OR_RETURN(Step step, MakeStep(target, field));
    if (step.target == Target::kDataFile) data_file = step.slot.node;
    if (step.target == Target::kSequenceNumber) plan->has_sequence_numbers = true;
    plan->entry_.push_back(std::move(step));
  }
  if (data_file == nullptr) return InvalidArgument("the manifest_entry record has no data_file");
  bool present[static_cast<size_t>(Target::kCount)] = {};
  const Node* partition = nullptr;
  for (const avro::Field& field : data_file->fields) {
    Target target = DataFileTarget(IdOf(field, kDataFileNames));
    FLOE_ASSIGN_OR_RETURN(Step step, MakeStep(target, field));
    present[static_cast<size_t>(step.target)] = true;
    if (step.target == Target::kPartition) partition = step.slot.node;
    plan->data_file_.push_back(std::move(step));
  }
  for (Target t :
       {Target::kFilePath, Target::kFileFormat, Target::kRecordCount, Target::kFileSize}) {
    if (!present[static_cast<size_t>(t)]) {
      return InvalidArgument("the data_file record lacks a required field");
    }
  }
  for (size_t t = static_cast<size_t>(Target::kContent); t < static_cast<size_t>(Target::kCount);
       ++t) {
    if (!present[t]) plan->absent_.push_back(static_cast<Target>(t));
  }
  std::vector<NestedField> fields;
  if (partition != nullptr) {
    int32_t next_id = 1000;
    for (const avro::Field& field : partition->fields) {
      Step step;
      step.target = Target::kPartition;
      step.writer = field.type;
      FLOE_ASSIGN_OR_RETURN(step.slot, MakeSlot(field.type));
      auto type = IcebergTypeOf(*field.type);
      if (!type) {
        Error error = std::move(type).error();
        error.AddContext("partition field '" + field.name + "'");
        return std::unexpected(std::move(error));
      }
      step.type = *type;
      int32_t id = field.field_id.value_or(next_id);
      next_id = id + 1;
      fields.push_back(NestedField{.id = id, .name = field.name, .type = step.type});
      plan->partition_.push_back(std::move(step));
    }
  }
  plan->partition_type = StructType::Make(std::move(fields));
  return plan;
}

void EntryPlan::ResetAbsent(DataFile& out, const std::vector<Target>& absent) {
  for (Target t : absent) {
    switch (t) {
      case Target::kContent:
        out.content = FileContent::kData;
        break;
      case Target::kPartition:
        out.partition.clear();
        break;
      case Target::kColumnSizes:
        out.column_sizes.clear();
        break;
      case Target::kValueCounts:
        out.value_counts.clear();
        break;
      case Target::kNullCounts:
        out.null_value_counts.clear();
        break;
      case Target::kNanCounts:
        out.nan_value_counts.clear();
        break;
      case Target::kLowerBounds:
        out.lower_bounds.clear();
        break;
      case Target::kUpperBounds:
        out.upper_bounds.clear();
        break;
      case Target::kKeyMetadata:
        out.key_metadata.reset();
        break;
      case Target::kSplitOffsets:
        out.split_offsets.clear();
        break;
      case Target::kEqualityIds:
        out.equality_ids.clear();
        break;
      case Target::kSortOrderId:
        out.sort_order_id.reset();
        break;
      case Target::kFirstRowId:
        out.first_row_id.reset();
        break;
      case Target::kReferencedDataFile:
        out.referenced_data_file.reset();
        break;
      case Target::kContentOffset:
        out.content_offset.reset();
        break;
      case Target::kContentSize:
        out.content_size_in_bytes.reset();
        break;
      default:
        break;
    }
  }
}

void EntryPlan::DecodePartition(Cursor& c, std::vector<Literal>& out) const {
  out.clear();
  for (const Step& step : partition_) out.push_back(ReadPartitionValue(c, step));
}

void EntryPlan::DecodeDataFile(Cursor& c, DataFile& out, const std::vector<int32_t>* stats) const {
  ResetAbsent(out, absent_);
  for (const Step& step : data_file_) {
    switch (step.target) {
      case Target::kContent: {
        int64_t v = ReadOptionalIntegral(c, step.slot).value_or(0);
        if (v < 0 || v > 2) c.Fail("data file content not 0, 1 or 2");
        out.content = static_cast<FileContent>(v < 0 || v > 2 ? 0 : v);
        break;
      }
      case Target::kFilePath:
      case Target::kFileFormat: {
        std::string& s = step.target == Target::kFilePath ? out.file_path : out.file_format;
        if (!Present(c, step.slot)) {
          s.clear();
          break;
        }
        s.assign(ReadBinary(c, step.slot.node));
        if (step.target == Target::kFileFormat) {
          for (char& ch : s) ch = static_cast<char>(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch);
        }
        break;
      }
      case Target::kPartition:
        if (Present(c, step.slot)) {
          DecodePartition(c, out.partition);
        } else {
          out.partition.clear();
        }
        break;
      case Target::kRecordCount:
        out.record_count = ReadOptionalIntegral(c, step.slot).value_or(0);
        break;
      case Target::kFileSize:
        out.file_size_in_bytes = ReadOptionalIntegral(c, step.slot).value_or(0);
        break;
      case Target::kColumnSizes:
        ReadCountMap(c, step, out.column_sizes, stats);
        break;
      case Target::kValueCounts:
        ReadCountMap(c, step, out.value_counts, stats);
        break;
      case Target::kNullCounts:
        ReadCountMap(c, step, out.null_value_counts, stats);
        break;
      case Target::kNanCounts:
        ReadCountMap(c, step, out.nan_value_counts, stats);
        break;
      case Target::kLowerBounds:
        ReadBoundMap(c, step, out.lower_bounds, stats);
        break;
      case Target::kUpperBounds:
        ReadBoundMap(c, step, out.upper_bounds, stats);
        break;
      case Target::kKeyMetadata:
        ReadOptionalString(c, step.slot, out.key_metadata);
        break;
      case Target::kReferencedDataFile:
        ReadOptionalString(c, step.slot, out.referenced_data_file);
        break;
      case Target::kSplitOffsets:
        ReadList(c, step, out.split_offsets);
        break;
      case Target::kEqualityIds:
        ReadList(c, step, out.equality_ids);
        break;
      case Target::kSortOrderId: {
        auto v = ReadOptionalIntegral(c, step.slot);
        if (v) {
          out.sort_order_id = FieldId(c, *v);
        } else {
          out.sort_order_id.reset();
        }
        break;
      }
      case Target::kFirstRowId:
        out.first_row_id = ReadOptionalIntegral(c, step.slot);
        break;
      case Target::kContentOffset:
        out.content_offset = ReadOptionalIntegral(c, step.slot);
        break;
      case Target::kContentSize:
        out.content_size_in_bytes = ReadOptionalIntegral(c, step.slot);
        break;
      default:
        Skip(c, *step.writer);
        break;
    }
  }
}

void EntryPlan::Decode(Cursor& c, ManifestEntry& out, const std::vector<int32_t>* stats) const {
  out.snapshot_id.reset();
  out.sequence_number.reset();
  out.file_sequence_number.reset();
  for (const Step& step : entry_) {
    switch (step.target) {
      case Target::kStatus: {
        int64_t s = ReadOptionalIntegral(c, step.slot).value_or(-1);
        if (s < 0 || s > 2) c.Fail("entry status not 0, 1 or 2");
        out.status = static_cast<EntryStatus>(s < 0 || s > 2 ? 0 : s);
        break;
      }
      case Target::kSnapshotId:
        out.snapshot_id = ReadOptionalIntegral(c, step.slot);
        break;
      case Target::kSequenceNumber:
        out.sequence_number = ReadOptionalIntegral(c, step.slot);
        break;
      case Target::kFileSequenceNumber:
        out.file_sequence_number = ReadOptionalIntegral(c, step.slot);
        break;
      case Target::kDataFile:
        if (!Present(c, step.slot)) {
          c.Fail("null data_file");
          break;
        }
        DecodeDataFile(c, out.data_file, stats);
        break;
      default:
        Skip(c, *step.writer);
        break;
    }
  }
}

ManifestReader::ManifestReader() = default;
ManifestReader::~ManifestReader() = default;

const std::map<std::string, std::string>& ManifestReader::metadata() const {
  return container_->metadata();
}

ManifestScratch::ManifestScratch(avro::SchemaCache* schemas) : schemas_(schemas) {}
ManifestScratch::~ManifestScratch() = default;

Result<std::span<const std::byte>> ManifestScratch::Read(const io::InputFile& file) {
  FLOE_ASSIGN_OR_RETURN(int64_t size, file.Size());
  if (size < 0) return CorruptData("{}: size {}", file.location(), size);
  const auto n = static_cast<size_t>(size);
  if (n > capacity_) {
    bytes_ = std::make_unique_for_overwrite<std::byte[]>(n);
    capacity_ = n;
  }
  std::span<std::byte> out(bytes_.get(), n);
  FLOE_ASSIGN_OR_RETURN(size_t read, file.ReadAt(0, out));
  if (read != n) return CorruptData("{}: read {} of its {} bytes", file.location(), read, n);
  return out;
}

Result<std::unique_ptr<ManifestReader>> ManifestReader::Open(std::span<const std::byte> bytes,
                                                             std::string name,
                                                             const ManifestFile* manifest) {
  std::unique_ptr<ManifestReader> reader(new ManifestReader());
  FLOE_RETURN_IF_ERROR(reader->OpenContainer(bytes, std::move(name), manifest, nullptr));
  return reader;
}

Result<std::unique_ptr<ManifestReader>> ManifestReader::Open(const io::InputFile& file,
                                                             const ManifestFile* manifest,
                                                             ManifestScratch* scratch) {
  std::unique_ptr<ManifestReader> reader(new ManifestReader());
  std::span<const std::byte> bytes;
  if (scratch != nullptr) {
    FLOE_ASSIGN_OR_RETURN(bytes, scratch->Read(file));
  } else {
    FLOE_ASSIGN_OR_RETURN(reader->owned_, file.ReadAll());
    bytes = std::as_bytes(std::span(reader->owned_));
  }
  FLOE_RETURN_IF_ERROR(reader->OpenContainer(bytes, file.location(), manifest, scratch));
  return reader;
}

Status ManifestReader::OpenContainer(std::span<const std::byte> bytes, std::string name,
                                     const ManifestFile* manifest, ManifestScratch* scratch) {
  avro::ContainerReadOptions options;
  if (scratch != nullptr) {
    options.schemas = scratch->schemas_;
    if (scratch->inflater_ == nullptr) {
      scratch->inflater_ = std::make_unique<compression::Inflater>();
    }
    options.inflater = scratch->inflater_.get();
  }
  FLOE_ASSIGN_OR_RETURN(container_,
                        avro::ContainerReader::Open(bytes, std::move(name), std::move(options)));
  return Init(manifest);
}

namespace {

Result<int64_t> ParseInt(std::string_view text, std::string_view key, const std::string& file) {
  int64_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) {
    return CorruptData("{}: metadata {} is '{}', not an integer", file, key, text);
  }
  return v;
}

}  // namespace

Status ManifestReader::Init(const ManifestFile* manifest) {
  const std::string& name = container_->name();
  FLOE_ASSIGN_OR_RETURN(ManifestKind kind, DetectKind(*container_));
  if (kind != ManifestKind::kManifest) {
    return InvalidArgument("{}: a manifest list, not a manifest", name);
  }
  if (auto v = container_->Metadata("format-version")) {
    FLOE_ASSIGN_OR_RETURN(int64_t version, ParseInt(*v, "format-version", name));
    if (version < kMinFormatVersion || version > kMaxFormatVersion) {
      return Unsupported("{}: format version {}", name, version);
    }
    format_version_ = static_cast<int>(version);
  }
  if (auto v = container_->Metadata("content")) {
    if (*v == "deletes") {
      content_ = ManifestContent::kDeletes;
    } else if (*v != "data") {
      return CorruptData("{}: metadata content is '{}', not data or deletes", name, *v);
    }
  } else if (manifest != nullptr) {
    content_ = manifest->content;
  }
  if (manifest != nullptr) {
    spec_id_ = manifest->partition_spec_id;
  } else if (auto v = container_->Metadata("partition-spec-id")) {
    FLOE_ASSIGN_OR_RETURN(int64_t id, ParseInt(*v, "partition-spec-id", name));
    spec_id_ = static_cast<int32_t>(id);
  }
  auto plan = EntryPlan::Make(container_->writer_schema()->root());
  if (!plan) {
    Error error = std::move(plan).error();
    error.AddContext(name);
    return std::unexpected(std::move(error));
  }
  plan_ = std::move(*plan);
  partition_type_ = plan_->partition_type;
  // Some v2 writers (Impala) leave format-version out of the header; sequence numbers exist only
  // from v2 on, so a schema that has them is at least v2 and its entries inherit the list's.
  if (!container_->Metadata("format-version") && plan_->has_sequence_numbers) format_version_ = 2;
  if (manifest != nullptr) {
    inherit_snapshot_id_ = manifest->added_snapshot_id;
    inherit_sequence_number_ = manifest->sequence_number;
    if (manifest->content == ManifestContent::kData) next_row_id_ = manifest->first_row_id;
  }
  // v1: every sequence number is 0.
  if (!plan_->has_sequence_numbers || format_version_ == 1) inherit_sequence_number_ = 0;
  return Ok();
}

void ManifestReader::Inherit(ManifestEntry& entry) {
  if (!entry.snapshot_id) entry.snapshot_id = inherit_snapshot_id_;
  if (!plan_->has_sequence_numbers || format_version_ == 1) {
    entry.sequence_number = 0;
    entry.file_sequence_number = 0;
  } else if (entry.status == EntryStatus::kAdded) {
    if (!entry.sequence_number) entry.sequence_number = inherit_sequence_number_;
    if (!entry.file_sequence_number) entry.file_sequence_number = inherit_sequence_number_;
  }
  DataFile& file = entry.data_file;
  file.spec_id = spec_id_;
  if (file.content == FileContent::kData) {
    if (!file.first_row_id && next_row_id_) {
      file.first_row_id = *next_row_id_;
      *next_row_id_ += file.record_count;
    }
  } else {
    file.first_row_id.reset();
  }
}

Result<bool> ManifestReader::Next(ManifestEntry& out) {
  while (block_left_ == 0) {
    auto more = container_->NextBlock();
    if (!more) return std::unexpected(std::move(more).error());
    if (!*more) return false;
    auto data = container_->block_data();
    block_ = data.data();
    block_size_ = data.size();
    block_pos_ = 0;
    block_offset_ = container_->block_offset();
    block_left_ = container_->block_count();
  }
  const auto* begin = reinterpret_cast<const uint8_t*>(block_) + block_pos_;
  Cursor c(begin, reinterpret_cast<const uint8_t*>(block_) + block_size_, block_pos_);
  plan_->Decode(c, out, stats_ ? &*stats_ : nullptr);
  if (!c.ok()) {
    return CorruptData("{}: entry in the block at file offset {}: {} at byte {} of the block",
                       container_->name(), block_offset_, c.error(), c.error_offset());
  }
  block_pos_ += c.position();
  --block_left_;
  if (block_left_ == 0 && block_pos_ != block_size_) {
    return CorruptData("{}: {} bytes left over after the block at offset {}", container_->name(),
                       block_size_ - block_pos_, block_offset_);
  }
  Inherit(out);
  return true;
}

Result<std::vector<ManifestEntry>> ManifestReader::ReadAll() {
  std::vector<ManifestEntry> entries;
  while (true) {
    ManifestEntry entry;
    FLOE_ASSIGN_OR_RETURN(bool more, Next(entry));
    if (!more) break;
    entries.push_back(std::move(entry));
  }
  return entries;
}

Result<ManifestKind> DetectKind(const avro::ContainerReader& reader) {
  // By the spec's names, or by field ids with the right shapes: data files of tables whose
  // columns happen to have ids 2 or 500 must not pass for manifests.
  const Node& root = reader.writer_schema()->root();
  auto unwrap = [](const Node* n) {
    auto slot = MakeSlot(n);
    return slot ? slot->node : n;
  };
  if (root.type == avro::Type::kRecord) {
    for (const avro::Field& field : root.fields) {
      const Node* type = unwrap(field.type);
      if (field.name == "manifest_path" && type->type == avro::Type::kString) {
        return ManifestKind::kManifestList;
      }
      if (field.name == "data_file" && type->type == avro::Type::kRecord) {
        for (const avro::Field& inner : type->fields) {
          if (inner.name == "file_path" || inner.field_id == 100) return ManifestKind::kManifest;
        }
      }
    }
  }
  return InvalidArgument("{}: neither a manifest nor a manifest list", reader.name());
}

}  // namespace floe::manifest
