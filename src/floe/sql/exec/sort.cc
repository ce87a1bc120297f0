// ORDER BY: one subtask buffers the input (batch mode only), then sorts row references stably.
// With a limit it is a top-N: whenever the buffer holds more than twice limit + offset rows, it
// keeps only the first limit + offset of them, so memory stays bounded by the limit.

#include <algorithm>
#include <memory>
#include <utility>

#include "floe/batch/filter.h"
#include "floe/sql/exec/cell_internal.h"
#include "floe/sql/exec/names_internal.h"
#include "floe/sql/exec/relational.h"
#include "floe/sql/exec/row_builder_internal.h"

namespace floe::sql::exec {
namespace {

constexpr int64_t kRowsPerOutputBatch = 64 * 1024;
constexpr int64_t kMinCompactRows = 4096;

struct RowRef {
  int32_t batch;
  int64_t row;
};

class SortOperator : public stream::Operator {
 public:
  SortOperator(BatchSchemaPtr schema, std::vector<SortKey> keys, std::optional<int64_t> limit,
               int64_t offset)
      : schema_(std::move(schema)), keys_(std::move(keys)), limit_(limit), offset_(offset) {}

  Status ProcessBatch(int, RecordBatch batch, stream::Output&) override {
    if (batch.num_rows() == 0) return {};
    buffered_ += batch.num_rows();
    batches_.push_back(std::move(batch));
    if (limit_ && buffered_ > std::max(kMinCompactRows, 2 * Kept())) return Compact();
    return {};
  }

  Status Finish(stream::Output& output) override {
    std::vector<RowRef> order = SortedRows();
    int64_t begin = std::min<int64_t>(offset_, std::ssize(order));
    int64_t end =
        limit_ ? std::min<int64_t>(std::ssize(order), begin + *limit_) : std::ssize(order);
    RowBuilder rows(schema_);
    for (int64_t i = begin; i < end; ++i) {
      FLOE_RETURN_IF_ERROR(rows.AppendCells(batches_[order[i].batch], order[i].row, 0));
      rows.EndRow();
      if (rows.num_rows() >= kRowsPerOutputBatch || i + 1 == end) {
        FLOE_ASSIGN_OR_RETURN(RecordBatch batch, rows.Finish());
        FLOE_RETURN_IF_ERROR(output.Emit(std::move(batch)));
      }
    }
    batches_.clear();
    return {};
  }

 private:
  int64_t Kept() const { return *limit_ + offset_; }

  int Compare(const RowRef& a, const RowRef& b) const {
    for (const SortKey& key : keys_) {
      const Array& x = batches_[a.batch].column(key.column);
      const Array& y = batches_[b.batch].column(key.column);
      bool x_null = x.IsNull(a.row);
      bool y_null = y.IsNull(b.row);
      if (x_null || y_null) {
        if (x_null && y_null) continue;
        return x_null == key.nulls_first ? -1 : 1;
      }
      int c = CompareCells(x, a.row, y, b.row);
      if (c != 0) return key.descending ? -c : c;
    }
    return 0;
  }

  // Every buffered row in key order; ties keep arrival order.
  std::vector<RowRef> SortedRows() const {
    std::vector<RowRef> order;
    order.reserve(static_cast<size_t>(buffered_));
    for (size_t b = 0; b < batches_.size(); ++b) {
      for (int64_t r = 0; r < batches_[b].num_rows(); ++r) {
        order.push_back({static_cast<int32_t>(b), r});
      }
    }
    std::stable_sort(order.begin(), order.end(),
                     [this](const RowRef& a, const RowRef& b) { return Compare(a, b) < 0; });
    return order;
  }

  // Keeps the first limit + offset rows. Filtering each batch keeps the arrival order of the
  // rows that stay, so later ties still resolve as they would have.
  Status Compact() {
    std::vector<RowRef> order = SortedRows();
    order.resize(static_cast<size_t>(std::min<int64_t>(Kept(), std::ssize(order))));
    std::vector<std::vector<uint8_t>> keep(batches_.size());
    for (size_t b = 0; b < batches_.size(); ++b) keep[b].assign(batches_[b].num_rows(), 0);
    for (const RowRef& ref : order) keep[ref.batch][ref.row] = 1;
    std::vector<RecordBatch> kept;
    for (size_t b = 0; b < batches_.size(); ++b) {
      FLOE_ASSIGN_OR_RETURN(RecordBatch batch, FilterBatch(batches_[b], keep[b]));
      if (batch.num_rows() > 0) kept.push_back(std::move(batch));
    }
    batches_ = std::move(kept);
    buffered_ = std::ssize(order);
    return {};
  }

  BatchSchemaPtr schema_;
  std::vector<SortKey> keys_;
  std::optional<int64_t> limit_;
  int64_t offset_;
  std::vector<RecordBatch> batches_;
  int64_t buffered_ = 0;
};

}  // namespace

Result<stream::DataStream> Sort(const stream::DataStream& input, std::vector<SortKey> keys,
                                std::optional<int64_t> limit, int64_t offset) {
  if (input.environment().config().mode != stream::RuntimeMode::kBatch) {
    return Unsupported(
        "ORDER BY is only supported in batch mode (SET 'execution.runtime-mode' = 'batch'): a "
        "streaming query cannot sort rows that have not arrived yet");
  }
  if (offset < 0) return InvalidArgument("OFFSET {} must not be negative", offset);
  if (limit && *limit < 0) return InvalidArgument("LIMIT {} must not be negative", *limit);
  const BatchSchema& schema = *input.schema();
  for (const SortKey& key : keys) {
    if (key.column < 0 || key.column >= schema.num_fields()) {
      return InvalidArgument("ORDER BY column {} is not one of the input's {} columns", key.column,
                             schema.num_fields());
    }
    const Field& field = schema.field(key.column);
    if (!IsOrderable(*field.type)) {
      return InvalidArgument("ORDER BY '{}': values of type {} cannot be ordered", field.name,
                             field.type->ToString());
    }
  }
  auto factory = [schema = input.schema(), keys, limit,
                  offset](int) -> Result<std::unique_ptr<stream::Operator>> {
    return std::make_unique<SortOperator>(schema, keys, limit, offset);
  };
  return input.Transform(NextOperatorName(input, "Sort"), input.schema(), factory, 1);
}

}  // namespace floe::sql::exec
