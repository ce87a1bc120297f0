// Read-ahead of a remote file's source: a file whose location says s3:// (served by a local file
// that counts its reads) reads the same rows as the local file, in far fewer reads: the footer and
// magic in one, and each row group's scanned chunks in one coalesced fetch.

#include "floe/format/parquet/reader/input_file_source.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>

#include "floe/batch/value.h"
#include "floe/format/parquet/reader/batch_reader.h"
#include "floe/format/parquet/file_reader.h"
#include "floe/io/file_io.h"
#include "floe/io/local_file_io.h"
#include "floe/testing/testing.h"

namespace floe::parquet {
namespace {

// A local file under another name, counting the reads that reach it.
class CountingFile : public io::InputFile {
 public:
  CountingFile(std::unique_ptr<io::InputFile> file, std::string location)
      : file_(std::move(file)), location_(std::move(location)) {}
  const std::string& location() const override { return location_; }
  Result<int64_t> Size() const override { return file_->Size(); }
  Result<size_t> ReadAt(int64_t offset, std::span<std::byte> out) const override {
    ++reads;
    return file_->ReadAt(offset, out);
  }
  mutable std::atomic<int> reads{0};

 private:
  std::unique_ptr<io::InputFile> file_;
  std::string location_;
};

// Every value of every row, in order.
std::vector<Value> ReadAllValues(ParquetBatchReader& reader) {
  std::vector<Value> values;
  auto batches = reader.ReadAll();
  EXPECT_TRUE(batches.has_value()) << batches.error().ToString();
  if (!batches) return values;
  for (const RecordBatch& batch : *batches) {
    for (int64_t row = 0; row < batch.num_rows(); ++row) {
      for (int column = 0; column < batch.num_columns(); ++column) {
        values.push_back(RowView(batch, row).Get(column));
      }
    }
  }
  return values;
}

// Equal values, a NaN equal to a NaN (the file is full of them).
bool SameValues(const std::vector<Value>& a, const std::vector<Value>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].is<double>() && b[i].is<double>() && std::isnan(a[i].get<double>()) &&
        std::isnan(b[i].get<double>())) {
      continue;
    }
    if (a[i].is<float>() && b[i].is<float>() && std::isnan(a[i].get<float>()) &&
        std::isnan(b[i].get<float>())) {
      continue;
    }
    if (!(a[i] == b[i])) return false;
  }
  return true;
}

TEST(InputFileSourceTest, RemoteFileReadsAheadWithFewerReads) {
  const std::string path =
      (floe::testing::TestDataDir() / "parquet-testing/data/floating_orders_nan_count.parquet")
          .string();
  FLOE_ASSERT_OK_AND_ASSIGN(auto local_reader, ParquetBatchReader::OpenPath(path, {}));
  const size_t row_groups = local_reader->file().metadata().row_groups.size();
  ASSERT_GT(row_groups, 1u);
  const std::vector<Value> expected = ReadAllValues(*local_reader);
  ASSERT_EQ(expected.size(), 50u * 6u);

  io::LocalFileIO io;
  for (const char* location : {"s3://bucket/f.parquet", "/local/f.parquet"}) {
    FLOE_ASSERT_OK_AND_ASSIGN(auto input, io.NewInputFile(path));
    auto file = std::make_shared<CountingFile>(std::move(input), location);
    FLOE_ASSERT_OK_AND_ASSIGN(auto reader, ParquetBatchReader::Open(file, {}));
    EXPECT_TRUE(SameValues(ReadAllValues(*reader), expected)) << location;
    const size_t columns = reader->file().schema().columns().size();
    if (std::string_view(location).starts_with("s3://")) {
      // The magic and the tail in one fetch (the file is smaller than 64 KiB); then one fetch per
      // row group, whose chunks are adjacent.
      EXPECT_EQ(file->reads.load(), static_cast<int>(1 + row_groups)) << location;
    } else {
      // Head, tail, footer, and at least one read per column chunk.
      EXPECT_GE(file->reads.load(), static_cast<int>(3 + row_groups * columns)) << location;
    }
  }
}

}  // namespace
}  // namespace floe::parquet
