// Mark join: the right side (input 1) is held in memory with two hash tables, one of its
// correlation keys (which groups are non-empty, and whether a group holds a null IN value) and,
// for IN, one of correlation keys plus the IN value. Left batches probe once the right side has
// ended (earlier ones are held back) and pass through with the mark appended.

#include <fmt/format.h>

#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "floe/batch/builder.h"
#include "floe/sql/exec/build_probe_internal.h"
#include "floe/sql/exec/cell_internal.h"
#include "floe/sql/exec/names_internal.h"
#include "floe/sql/exec/relational.h"

namespace floe::sql::exec {
namespace {

struct Group {
  bool has_null_value = false;  // an IN value of this group is null
};

class MarkJoinOperator : public BuildProbeOperator {
 public:
  MarkJoinOperator(BatchSchemaPtr output, std::vector<int> left_keys, std::vector<int> right_keys,
                   std::optional<std::pair<int, int>> in)
      : output_(std::move(output)),
        left_keys_(std::move(left_keys)),
        right_keys_(std::move(right_keys)),
        in_(in) {}

 private:
  Status Build(RecordBatch batch) override {
    for (int64_t row = 0; row < batch.num_rows(); ++row) {
      // A null correlation key equals no outer row: the row is in no group.
      if (!EncodeKey(batch, right_keys_, row, key_)) continue;
      Group& group = groups_[key_];
      if (!in_) continue;
      const Array& value = batch.column(in_->second);
      if (value.IsNull(row)) {
        group.has_null_value = true;
        continue;
      }
      EncodeCell(value, row, key_);
      values_.insert(key_);
    }
    return {};
  }

  Status Probe(const RecordBatch& batch, stream::Output& output) override {
    BooleanBuilder mark;
    for (int64_t row = 0; row < batch.num_rows(); ++row) {
      if (!EncodeKey(batch, left_keys_, row, key_)) {
        mark.Append(false);  // no right row's key equals a null: the subquery is empty
        continue;
      }
      auto group = groups_.find(key_);
      if (group == groups_.end()) {
        mark.Append(false);
        continue;
      }
      if (!in_) {
        mark.Append(true);
        continue;
      }
      const Array& value = batch.column(in_->first);
      if (value.IsNull(row)) {
        mark.AppendNull();
        continue;
      }
      EncodeCell(value, row, key_);
      if (values_.contains(key_)) {
        mark.Append(true);
      } else if (group->second.has_null_value) {
        mark.AppendNull();
      } else {
        mark.Append(false);
      }
    }
    std::vector<Array> columns = batch.columns();
    FLOE_ASSIGN_OR_RETURN(Array marks, mark.Finish());
    columns.push_back(std::move(marks));
    FLOE_ASSIGN_OR_RETURN(RecordBatch out,
                          RecordBatch::Make(output_, std::move(columns), batch.num_rows()));
    return output.Emit(std::move(out));
  }

  BatchSchemaPtr output_;
  std::vector<int> left_keys_;
  std::vector<int> right_keys_;
  std::optional<std::pair<int, int>> in_;
  std::unordered_map<std::string, Group> groups_;
  std::unordered_set<std::string> values_;  // correlation key then IN value
  std::string key_;
};

}  // namespace

Result<stream::DataStream> MarkJoin(const stream::DataStream& left, const stream::DataStream& right,
                                    std::vector<int> left_keys, std::vector<int> right_keys,
                                    std::optional<std::pair<int, int>> in, std::string mark_name) {
  // The IN pair is checked as the keys are.
  std::vector<int> left_columns = left_keys, right_columns = right_keys;
  if (in) {
    left_columns.push_back(in->first);
    right_columns.push_back(in->second);
  }
  FLOE_RETURN_IF_ERROR(CheckJoinInputs(left, right, left_columns, right_columns,
                                       fmt::format("a subquery predicate ({})", mark_name)));
  std::vector<Field> fields = left.schema()->fields();
  fields.push_back(Field{.name = std::move(mark_name), .type = DataType::Bool(), .nullable = true});
  auto output = std::make_shared<const BatchSchema>(std::move(fields));
  auto factory = [=](int) -> Result<std::unique_ptr<stream::Operator>> {
    return std::make_unique<MarkJoinOperator>(output, left_keys, right_keys, in);
  };
  // Without keys there is one group: every subtask of the left needs the whole right side.
  return ConnectJoin(left, right, left_keys, right_keys, left_keys.empty(),
                     NextOperatorName(left, "MarkJoin"), output, factory);
}

}  // namespace floe::sql::exec
