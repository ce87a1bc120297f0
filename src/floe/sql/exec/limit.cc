// LIMIT/OFFSET: one subtask counts rows in arrival order. The runtime has no way yet to tell a
// source to stop, so rows past the limit are read and dropped.

#include <algorithm>
#include <memory>
#include <utility>

#include "floe/sql/exec/names_internal.h"
#include "floe/sql/exec/relational.h"
#include "floe/sql/exec/state_codec_internal.h"

namespace floe::sql::exec {
namespace {

class LimitOperator : public stream::Operator {
 public:
  LimitOperator(std::optional<int64_t> limit, int64_t offset) : limit_(limit), skip_(offset) {}

  Status ProcessBatch(int, RecordBatch batch, stream::Output& output) override {
    int64_t rows = batch.num_rows();
    int64_t skipped = std::min(skip_, rows);
    skip_ -= skipped;
    int64_t take = rows - skipped;
    if (limit_) take = std::min(take, *limit_ - emitted_);
    if (take <= 0) return {};
    emitted_ += take;
    return output.Emit(batch.Slice(skipped, take));
  }

  Status Open(const stream::OperatorContext& context) override {
    for (const std::string& entry : context.restored_state) {
      StateReader reader(entry);
      FLOE_ASSIGN_OR_RETURN(skip_, reader.Int64());
      FLOE_ASSIGN_OR_RETURN(emitted_, reader.Int64());
    }
    return {};
  }

  Result<std::vector<std::string>> SnapshotState(int64_t, stream::Output&) override {
    StateWriter writer;
    writer.Int64(skip_);
    writer.Int64(emitted_);
    return std::vector<std::string>{writer.Take()};
  }

 private:
  std::optional<int64_t> limit_;
  int64_t skip_;
  int64_t emitted_ = 0;
};

}  // namespace

Result<stream::DataStream> Limit(const stream::DataStream& input, std::optional<int64_t> limit,
                                 int64_t offset) {
  if (offset < 0) return InvalidArgument("OFFSET {} must not be negative", offset);
  if (limit && *limit < 0) return InvalidArgument("LIMIT {} must not be negative", *limit);
  auto factory = [limit, offset](int) -> Result<std::unique_ptr<stream::Operator>> {
    return std::make_unique<LimitOperator>(limit, offset);
  };
  return input.Transform(NextOperatorName(input, "Limit"), input.schema(), factory, 1);
}

}  // namespace floe::sql::exec
