#include "floe/stream/collection_source.h"

#include <charconv>
#include <deque>
#include <string>
#include <utility>

namespace floe::stream {
namespace {

// The readers divide the batches among themselves: there is nothing to enumerate.
class NoSplitsEnumerator : public SplitEnumerator {
 public:
  Status Start(SplitEnumeratorContext&, std::optional<std::string>) override { return {}; }
  Status HandleSplitRequest(int) override { return {}; }
  Result<std::string> SnapshotState(int64_t) override { return std::string(); }
};

class CollectionReader : public SourceReader {
 public:
  explicit CollectionReader(std::shared_ptr<const std::vector<RecordBatch>> batches)
      : batches_(std::move(batches)) {}

  Status Open(const OperatorContext& context, SourceReaderContext&) override {
    int64_t count = static_cast<int64_t>(batches_->size());
    if (!context.restored_checkpoint_id) {
      for (int64_t i = context.subtask_index; i < count; i += context.parallelism) {
        todo_.push_back(i);
      }
      return {};
    }
    for (const std::string& entry : context.restored_state) {
      int64_t index = -1;
      auto [end, ec] = std::from_chars(entry.data(), entry.data() + entry.size(), index);
      if (ec != std::errc() || end != entry.data() + entry.size() || index < 0 || index >= count) {
        return CorruptData("collection source '{}': state entry '{}' is not a batch index below {}",
                           context.operator_name, entry, count);
      }
      todo_.push_back(index);
    }
    return {};
  }
  void AddSplits(std::vector<std::any>) override {}
  void NotifyNoMoreSplits() override {}

  Result<PollStatus> PollNext(Output& output) override {
    if (todo_.empty()) return PollStatus::kEnd;
    int64_t index = todo_.front();
    FLOE_RETURN_IF_ERROR(output.Emit((*batches_)[index]));
    todo_.pop_front();
    return todo_.empty() ? PollStatus::kEnd : PollStatus::kMoreAvailable;
  }

  Result<std::vector<std::string>> SnapshotState(int64_t) override {
    std::vector<std::string> state;
    for (int64_t index : todo_) state.push_back(std::to_string(index));
    return state;
  }

 private:
  std::shared_ptr<const std::vector<RecordBatch>> batches_;
  std::deque<int64_t> todo_;
};

}  // namespace

CollectionSource::CollectionSource(BatchSchemaPtr schema, std::vector<RecordBatch> batches)
    : schema_(std::move(schema)),
      batches_(std::make_shared<const std::vector<RecordBatch>>(std::move(batches))) {}

Result<std::unique_ptr<SplitEnumerator>> CollectionSource::CreateEnumerator() {
  return std::make_unique<NoSplitsEnumerator>();
}

Result<std::unique_ptr<SourceReader>> CollectionSource::CreateReader(int) {
  return std::make_unique<CollectionReader>(batches_);
}

}  // namespace floe::stream
