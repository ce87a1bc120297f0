#pragma once

// A bounded source over batches held in memory, for tests and examples. Reader s of p reads the
// batches i with i % p == s, in order. Its state is one entry per batch it has not emitted yet
// (the batch's index), so that it restores at any parallelism: nothing is read twice or skipped.

#include <memory>
#include <vector>

#include "floe/stream/source.h"

namespace floe::stream {

class CollectionSource : public Source {
 public:
  CollectionSource(BatchSchemaPtr schema, std::vector<RecordBatch> batches);

  BatchSchemaPtr schema() const override { return schema_; }
  bool bounded() const override { return true; }
  Result<std::unique_ptr<SplitEnumerator>> CreateEnumerator() override;
  Result<std::unique_ptr<SourceReader>> CreateReader(int subtask_index) override;

 private:
  BatchSchemaPtr schema_;
  std::shared_ptr<const std::vector<RecordBatch>> batches_;
};

}  // namespace floe::stream
