#include <fmt/format.h>

#include <memory>
#include <utility>
#include <vector>

#include "floe/batch/builder.h"
#include "floe/batch/take.h"
#include "floe/sql/exec/names_internal.h"
#include "floe/sql/exec/relational.h"

namespace floe::sql::exec {
namespace {

constexpr int64_t kMicrosPerMilli = 1000;

int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

// Puts each row into its windows: the row's index once per window, with the window's bounds.
class WindowAssignOperator : public stream::Operator {
 public:
  WindowAssignOperator(BatchSchemaPtr output, int time_column, WindowSpec spec)
      : output_(std::move(output)), time_column_(time_column), spec_(spec) {}

  Status ProcessBatch(int, RecordBatch batch, stream::Output& output) override {
    rows_.clear();
    starts_.clear();
    ends_.clear();
    const Array& times = batch.column(time_column_);
    for (int64_t r = 0; r < batch.num_rows(); ++r) {
      if (times.IsNull(r)) continue;
      Assign(r, times.Value<int64_t>(r));
    }
    if (rows_.empty()) return {};
    RecordBatch taken = batch;
    if (std::ssize(rows_) != batch.num_rows() || !IsIdentity()) {
      FLOE_ASSIGN_OR_RETURN(taken, TakeBatch(batch, rows_));
    }
    std::vector<Array> columns = taken.columns();
    const int first = batch.num_columns();
    Int64Builder start(output_->field(first).type);
    Int64Builder end(output_->field(first + 1).type);
    Int64Builder time(output_->field(first + 2).type);
    start.AppendValues(starts_);
    end.AppendValues(ends_);
    for (int64_t value : ends_) time.Append(value - kMicrosPerMilli);
    FLOE_ASSIGN_OR_RETURN(columns.emplace_back(), start.Finish());
    FLOE_ASSIGN_OR_RETURN(columns.emplace_back(), end.Finish());
    FLOE_ASSIGN_OR_RETURN(columns.emplace_back(), time.Finish());
    // The planner gives windows insert-only input: the rows need no kinds.
    FLOE_ASSIGN_OR_RETURN(RecordBatch out, RecordBatch::Make(output_, std::move(columns)));
    return output.Emit(std::move(out));
  }

 private:
  void Add(int64_t row, int64_t start, int64_t end) {
    rows_.push_back(row);
    starts_.push_back(start);
    ends_.push_back(end);
  }

  void Assign(int64_t row, int64_t t) {
    switch (spec_.kind) {
      case WindowKind::kTumble: {
        int64_t start =
            FloorDiv(t - spec_.offset_us, spec_.size_us) * spec_.size_us + spec_.offset_us;
        Add(row, start, start + spec_.size_us);
        return;
      }
      case WindowKind::kHop: {
        // Every window of `size` starting at a multiple of `slide` that holds t, latest first.
        int64_t last =
            FloorDiv(t - spec_.offset_us, spec_.slide_us) * spec_.slide_us + spec_.offset_us;
        for (int64_t start = last; start > t - spec_.size_us; start -= spec_.slide_us) {
          Add(row, start, start + spec_.size_us);
        }
        return;
      }
      case WindowKind::kCumulate: {
        // The windows of the size-long period holding t that end after it, one per step.
        int64_t start =
            FloorDiv(t - spec_.offset_us, spec_.size_us) * spec_.size_us + spec_.offset_us;
        int64_t first_end = start + (FloorDiv(t - start, spec_.slide_us) + 1) * spec_.slide_us;
        for (int64_t end = first_end; end <= start + spec_.size_us; end += spec_.slide_us) {
          Add(row, start, end);
        }
        return;
      }
    }
  }

  bool IsIdentity() const {
    for (size_t i = 0; i < rows_.size(); ++i) {
      if (rows_[i] != static_cast<int64_t>(i)) return false;
    }
    return true;
  }

  BatchSchemaPtr output_;
  int time_column_;
  WindowSpec spec_;
  std::vector<int64_t> rows_;
  std::vector<int64_t> starts_;
  std::vector<int64_t> ends_;
};

}  // namespace

Result<stream::DataStream> AssignWindows(const stream::DataStream& input, int time_column,
                                         WindowSpec spec) {
  const BatchSchema& schema = *input.schema();
  if (time_column < 0 || time_column >= schema.num_fields()) {
    return InvalidArgument("window: column {} is not one of the input's {} columns", time_column,
                           schema.num_fields());
  }
  const Field& time = schema.field(time_column);
  if (time.type->kind() != TypeKind::kTimestamp || time.type->unit() != TimeUnit::kMicro) {
    return InvalidArgument(
        "window: the time column '{}' is {}, not a TIMESTAMP(3) or "
        "TIMESTAMP_LTZ(3)",
        time.name, time.type->ToString());
  }
  bool stepped = spec.kind != WindowKind::kTumble;
  if (spec.size_us <= 0 || (stepped && spec.slide_us <= 0)) {
    return InvalidArgument("window: sizes and steps must be positive");
  }
  if (spec.kind == WindowKind::kCumulate && spec.size_us % spec.slide_us != 0) {
    return InvalidArgument("CUMULATE's max size must be a multiple of its step");
  }
  if (spec.kind == WindowKind::kHop && spec.size_us % spec.slide_us != 0) {
    return InvalidArgument("HOP's size must be a multiple of its slide");
  }
  std::vector<Field> fields = schema.fields();
  DataTypePtr bound = DataType::Timestamp(TimeUnit::kMicro, false, 3);
  fields.push_back({.name = "window_start", .type = bound, .nullable = false});
  fields.push_back({.name = "window_end", .type = bound, .nullable = false});
  fields.push_back({.name = "window_time",
                    .type = DataType::Timestamp(TimeUnit::kMicro, time.type->utc(), 3),
                    .nullable = false});
  auto output = std::make_shared<const BatchSchema>(std::move(fields));
  stream::OperatorFactory factory = [=](int) -> Result<std::unique_ptr<stream::Operator>> {
    return std::make_unique<WindowAssignOperator>(output, time_column, spec);
  };
  return input.Transform(NextOperatorName(input, "WindowAssign"), output, std::move(factory),
                         input.parallelism());
}

}  // namespace floe::sql::exec
