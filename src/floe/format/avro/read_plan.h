#pragma once

// Schema resolution compiled into a plan: how to read values written with one schema (the writer's,
// from the file) as another (the reader's). The plan is built once per schema pair and then drives
// decoding without looking at names or JSON again: the generic Datum reader walks it, and so can a
// typed fast path that decodes straight into columns.
//
// Resolution follows the Avro specification (promotions int->long->float->double, string<->bytes,
// enum symbols by name with the reader's default, record fields by name or alias, defaults for
// reader fields the writer lacks, unions on either side). When a reader field and the writer record
// both carry Iceberg "field-id" attributes, fields are matched by id instead of by name. Mismatches
// that make every value unreadable are kInvalidArgument errors at build time; a writer union branch
// that cannot be read is an error only when a value actually uses it.

#include <memory>
#include <optional>
#include <vector>

#include "floe/format/avro/datum.h"
#include "floe/format/avro/schema.h"
#include "floe/util/error.h"

namespace floe::avro {

struct ReadPlan {
  enum class Action : uint8_t {
    kNull,
    kBoolean,
    kInt,
    kLong,
    kFloat,
    kDouble,
    kBytes,
    kString,
    kIntToLong,
    kIntToFloat,
    kIntToDouble,
    kLongToFloat,
    kLongToDouble,
    kFloatToDouble,
    kBytesToString,
    kStringToBytes,
    kFixed,
    kEnum,         // enum_map translates writer symbol indexes to reader ones
    kArray,        // children[0] reads the items
    kMap,          // children[0] reads the values
    kRecord,       // steps in writer field order, then defaults
    kWriterUnion,  // children[i] reads writer branch i (nullptr: unreadable branch)
    kReaderUnion,  // writer is not a union: children[0] reads it as reader branch reader_branch
  };

  // One writer field of a record: read into reader field reader_index, or skip it (-1).
  struct FieldStep {
    const Node* writer_type = nullptr;
    int32_t reader_index = -1;
    const ReadPlan* plan = nullptr;
  };

  Action action = Action::kNull;
  const Node* writer = nullptr;
  const Node* reader = nullptr;
  std::vector<const ReadPlan*> children;
  std::vector<int32_t> enum_map;  // -1: the reader has no such symbol and no default
  size_t reader_branch = 0;
  std::vector<FieldStep> steps;
  std::vector<std::pair<size_t, Datum>> defaults;  // reader fields the writer does not have
  size_t min_item_size = 0;  // arrays: fewest bytes one writer item can take (bounds huge counts)
};

// Owns the plans of one (writer, reader) pair and both schemas.
class ResolvedSchema {
 public:
  // reader may be null: read as written.
  static Result<std::shared_ptr<const ResolvedSchema>> Make(std::shared_ptr<const Schema> writer,
                                                            std::shared_ptr<const Schema> reader);

  const ReadPlan& root() const { return *root_; }
  const Schema& writer() const { return *writer_; }
  const Schema& reader() const { return *reader_; }
  const std::shared_ptr<const Schema>& reader_ptr() const { return reader_; }

 private:
  friend class PlanBuilder;
  std::shared_ptr<const Schema> writer_;
  std::shared_ptr<const Schema> reader_;
  std::vector<std::unique_ptr<ReadPlan>> plans_;
  const ReadPlan* root_ = nullptr;
};

// Converts a JSON default value (as found in a schema) to a Datum of the given type.
Result<Datum> DefaultToDatum(const Node& type, const Json& value);

// The fewest bytes any value of this type takes in the binary encoding.
size_t MinEncodedSize(const Node& node);

}  // namespace floe::avro
