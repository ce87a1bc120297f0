#pragma once

// An ORC file opened for reading: its tail (postscript, footer, and on demand the metadata's
// stripe statistics), its schema as batch fields (schema_internal.h has the mapping), and its
// stripes read whole into RecordBatches of chosen top-level columns. The bytes come from any
// RandomAccessSource (a local file, memory, or a FileIO's input file).
//
// Nothing is allocated from a size the file states before that size is checked: the tail against
// the file's size and max_tail_bytes, each stream against its stripe and (decompressed) against
// max_stream_bytes, each count of values against the bytes of the stream that must hold them.
// Errors name the file and, where known, the stripe, column, stream and offset: kCorruptData for
// damaged input, kUnsupported for what floe does not read (LZO, unions), kResourceExhausted past a
// limit.

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "floe/batch/record_batch.h"
#include "floe/format/orc/metadata.h"
#include "floe/util/error.h"

namespace floe::parquet {
class RandomAccessSource;
}

namespace floe::orc {

struct FileOptions {
  // Nanoseconds cannot hold the years before 1677 and after 2262; Iceberg's timestamps are micros.
  TimeUnit timestamp_unit = TimeUnit::kMicro;
  uint64_t max_tail_bytes = 64 << 20;      // the footer and the metadata, each decompressed
  uint64_t max_stream_bytes = 1ull << 30;  // one decompressed stream
};

class OrcFileReader {
 public:
  static Result<std::unique_ptr<OrcFileReader>> Open(
      std::unique_ptr<parquet::RandomAccessSource> source, FileOptions options = {});
  static Result<std::unique_ptr<OrcFileReader>> OpenPath(const std::string& path,
                                                         FileOptions options = {});
  ~OrcFileReader();

  const std::string& name() const;
  uint64_t file_size() const { return file_size_; }
  const PostScript& postscript() const { return postscript_; }
  const Footer& footer() const { return footer_; }
  // One field per column of the root struct, in the file's order.
  const BatchSchemaPtr& schema() const { return schema_; }
  int64_t num_rows() const { return static_cast<int64_t>(footer_.number_of_rows); }
  size_t num_stripes() const { return footer_.stripes.size(); }

  // The metadata section: per stripe, the statistics of every column.
  Result<StripeStatistics> ReadStripeStatistics() const;
  Result<StripeFooter> ReadStripeFooter(size_t stripe) const;
  // The stripe's rows, one column per index of `columns` (indices into schema()).
  Result<RecordBatch> ReadStripe(size_t stripe, std::span<const int> columns) const;

  OrcFileReader(std::unique_ptr<parquet::RandomAccessSource> source, FileOptions options);

 private:
  Status ReadTail();
  Status CheckTypes() const;
  Result<std::vector<std::byte>> ReadSection(uint64_t offset, uint64_t length,
                                             std::string_view what) const;

  std::unique_ptr<parquet::RandomAccessSource> source_;
  FileOptions options_;
  uint64_t file_size_ = 0;
  uint64_t metadata_offset_ = 0;
  PostScript postscript_;
  Footer footer_;
  BatchSchemaPtr schema_;
};

}  // namespace floe::orc
