#include "floe/format/orc/file_reader.h"

#include <set>

#include "floe/format/orc/column_reader_internal.h"
#include "floe/format/orc/schema_internal.h"
#include "floe/format/orc/stream_internal.h"
#include "floe/format/parquet/source.h"

namespace floe::orc {
namespace {

constexpr uint64_t kHeaderLength = 3;  // "ORC"
// Deeper type trees are refused, which bounds the readers' recursion.
constexpr int kMaxNesting = 128;

template <typename T>
Result<T> InFile(Result<T> result, const std::string& name) {
  if (!result) return std::unexpected(std::move(result.error().AddContext("ORC file " + name)));
  return result;
}

bool IsReadStream(uint32_t kind) {
  switch (static_cast<StreamKind>(kind)) {
    case StreamKind::kPresent:
    case StreamKind::kData:
    case StreamKind::kLength:
    case StreamKind::kDictionaryData:
    case StreamKind::kSecondary:
      return true;
    default:
      return false;
  }
}

}  // namespace

OrcFileReader::OrcFileReader(std::unique_ptr<parquet::RandomAccessSource> source,
                             FileOptions options)
    : source_(std::move(source)), options_(options) {}

OrcFileReader::~OrcFileReader() = default;

const std::string& OrcFileReader::name() const { return source_->name(); }

Result<std::unique_ptr<OrcFileReader>> OrcFileReader::Open(
    std::unique_ptr<parquet::RandomAccessSource> source, FileOptions options) {
  auto reader = std::make_unique<OrcFileReader>(std::move(source), options);
  FLOE_RETURN_IF_ERROR(InFile(reader->ReadTail(), reader->name()));
  return reader;
}

Result<std::unique_ptr<OrcFileReader>> OrcFileReader::OpenPath(const std::string& path,
                                                               FileOptions options) {
  FLOE_ASSIGN_OR_RETURN(auto source, parquet::OpenLocalFile(path));
  return Open(std::move(source), options);
}

Result<std::vector<std::byte>> OrcFileReader::ReadSection(uint64_t offset, uint64_t length,
                                                          std::string_view what) const {
  FLOE_ASSIGN_OR_RETURN(auto raw, source_->Read(offset, length));
  const Compression compression{postscript_.compression, postscript_.compression_block_size};
  auto decoded = DecompressStream(compression, raw, options_.max_tail_bytes);
  if (!decoded) {
    return std::unexpected(
        std::move(decoded.error().AddContext(fmt::format("the {} at offset {}", what, offset))));
  }
  if (!decoded->is_owned) return raw;
  return std::move(decoded->owned);
}

Status OrcFileReader::ReadTail() {
  file_size_ = source_->size();
  if (file_size_ < kHeaderLength + 1) {
    return CorruptData("{} bytes are too few for an ORC file", file_size_);
  }
  FLOE_ASSIGN_OR_RETURN(auto header, source_->Read(0, kHeaderLength));
  if (std::memcmp(header.data(), "ORC", kHeaderLength) != 0) {
    return CorruptData("the file does not start with \"ORC\"");
  }
  FLOE_ASSIGN_OR_RETURN(auto last, source_->Read(file_size_ - 1, 1));
  const uint64_t ps_length = static_cast<uint8_t>(last[0]);
  const uint64_t ps_offset = file_size_ - 1 - ps_length;
  if (ps_length == 0 || ps_length + 1 > file_size_ - kHeaderLength) {
    return CorruptData("bad postscript length {} at offset {} of a {}-byte file", ps_length,
                       file_size_ - 1, file_size_);
  }
  FLOE_ASSIGN_OR_RETURN(auto ps_bytes, source_->Read(ps_offset, ps_length));
  auto ps = ParsePostScript(ps_bytes);
  if (!ps) {
    return std::unexpected(
        std::move(ps.error().AddContext(fmt::format("the postscript at offset {}", ps_offset))));
  }
  postscript_ = std::move(*ps);
  const uint64_t room = ps_offset - kHeaderLength;
  if (postscript_.footer_length > room ||
      postscript_.metadata_length > room - postscript_.footer_length) {
    return CorruptData(
        "the postscript at offset {} gives a footer of {} and metadata of {} bytes, "
        "more than the file's {} bytes before it",
        ps_offset, postscript_.footer_length, postscript_.metadata_length, room);
  }
  if (postscript_.footer_length > options_.max_tail_bytes ||
      postscript_.metadata_length > options_.max_tail_bytes) {
    return ResourceExhausted("the footer ({} bytes) or metadata ({} bytes) is over the limit of {}",
                             postscript_.footer_length, postscript_.metadata_length,
                             options_.max_tail_bytes);
  }
  if (postscript_.compression != CompressionKind::kNone &&
      (postscript_.compression_block_size == 0 ||
       postscript_.compression_block_size > options_.max_stream_bytes)) {
    return CorruptData("the postscript gives a compression block size of {}",
                       postscript_.compression_block_size);
  }
  const uint64_t footer_offset = ps_offset - postscript_.footer_length;
  metadata_offset_ = footer_offset - postscript_.metadata_length;
  FLOE_ASSIGN_OR_RETURN(auto footer_bytes,
                        ReadSection(footer_offset, postscript_.footer_length, "footer"));
  auto footer = ParseFooter(footer_bytes);
  if (!footer) {
    return std::unexpected(std::move(
        footer.error().AddContext(fmt::format("the footer at offset {}", footer_offset))));
  }
  footer_ = std::move(*footer);
  FLOE_RETURN_IF_ERROR(CheckTypes());
  for (size_t i = 0; i < footer_.stripes.size(); ++i) {
    const StripeInformation& s = footer_.stripes[i];
    const uint64_t end = metadata_offset_;
    if (s.offset < kHeaderLength || s.offset > end || s.index_length > end - s.offset ||
        s.data_length > end - s.offset - s.index_length ||
        s.footer_length > end - s.offset - s.index_length - s.data_length ||
        s.number_of_rows > static_cast<uint64_t>(INT64_MAX)) {
      return CorruptData("stripe {} at offset {} ({} + {} + {} bytes) lies outside the file's data",
                         i, s.offset, s.index_length, s.data_length, s.footer_length);
    }
  }
  const Type& root = footer_.types[0];
  std::vector<Field> fields;
  for (size_t i = 0; i < root.subtypes.size(); ++i) {
    FLOE_ASSIGN_OR_RETURN(Field field, MapField(footer_.types, root.subtypes[i],
                                                root.field_names[i], options_.timestamp_unit));
    fields.push_back(std::move(field));
  }
  schema_ = std::make_shared<BatchSchema>(std::move(fields));
  return Ok();
}

Status OrcFileReader::CheckTypes() const {
  const auto& types = footer_.types;
  if (types.empty() || types[0].kind != TypeKind::kStruct) {
    return CorruptData("the footer's type tree does not start with a struct");
  }
  if (types[0].field_names.size() != types[0].subtypes.size()) {
    return CorruptData("the root struct has {} names for {} fields", types[0].field_names.size(),
                       types[0].subtypes.size());
  }
  // A tree in pre-order: every column but the root has one parent, listed before it.
  std::vector<int> depth(types.size(), -1);
  depth[0] = 0;
  for (uint32_t c = 0; c < types.size(); ++c) {
    if (depth[c] < 0) return CorruptData("ORC column {} has no parent", c);
    if (depth[c] > kMaxNesting) return Unsupported("types nested deeper than {}", kMaxNesting);
    for (uint32_t sub : types[c].subtypes) {
      if (sub <= c || sub >= types.size() || depth[sub] >= 0) {
        return CorruptData("ORC column {} names subtype {} of {} types", c, sub, types.size());
      }
      depth[sub] = depth[c] + 1;
    }
  }
  return Ok();
}

Result<StripeStatistics> OrcFileReader::ReadStripeStatistics() const {
  if (postscript_.metadata_length == 0) return StripeStatistics{};
  auto bytes = ReadSection(metadata_offset_, postscript_.metadata_length, "metadata");
  if (!bytes) return InFile<StripeStatistics>(std::unexpected(std::move(bytes).error()), name());
  return InFile(ParseMetadata(*bytes), name());
}

Result<StripeFooter> OrcFileReader::ReadStripeFooter(size_t stripe) const {
  if (stripe >= footer_.stripes.size()) {
    return InvalidArgument("stripe {} of a file with {}", stripe, footer_.stripes.size());
  }
  const StripeInformation& s = footer_.stripes[stripe];
  const uint64_t offset = s.offset + s.index_length + s.data_length;
  auto bytes = ReadSection(offset, s.footer_length, "stripe footer");
  auto footer = bytes ? ParseStripeFooter(*bytes)
                      : Result<StripeFooter>(std::unexpected(std::move(bytes).error()));
  if (!footer) {
    footer.error().AddContext(fmt::format("stripe {}", stripe));
    return InFile(std::move(footer), name());
  }
  if (footer->columns.size() < footer_.types.size()) {
    return CorruptData("ORC file {}: stripe {} has {} column encodings for {} columns", name(),
                       stripe, footer->columns.size(), footer_.types.size());
  }
  return footer;
}

Result<RecordBatch> OrcFileReader::ReadStripe(size_t stripe, std::span<const int> columns) const {
  FLOE_ASSIGN_OR_RETURN(StripeFooter footer, ReadStripeFooter(stripe));
  const StripeInformation& s = footer_.stripes[stripe];
  const Type& root = footer_.types[0];
  auto fail = [&](Error error) {
    error.AddContext(fmt::format("ORC file {}: stripe {}", name(), stripe));
    return std::unexpected(std::move(error));
  };
  // The column ids of the chosen top-level columns' subtrees.
  std::vector<bool> wanted(footer_.types.size(), false);
  for (int index : columns) {
    if (index < 0 || static_cast<size_t>(index) >= root.subtypes.size()) {
      return InvalidArgument("ORC file {}: no column {}", name(), index);
    }
    const uint32_t first = root.subtypes[index];
    FLOE_ASSIGN_OR_RETURN(uint32_t end, SubtreeEnd(footer_.types, first));
    for (uint32_t c = first; c < end; ++c) wanted[c] = true;
  }
  StripeStreams streams;
  streams.types = &footer_.types;
  streams.encodings = footer.columns;
  streams.timestamp_unit = options_.timestamp_unit;
  bool wants_local_time = false;
  for (uint32_t c = 0; c < wanted.size(); ++c) {
    wants_local_time =
        wants_local_time || (wanted[c] && footer_.types[c].kind == TypeKind::kTimestamp);
  }
  if (wants_local_time) {
    auto zone = TimeZone::Load(footer.writer_timezone);
    if (!zone) return fail(std::move(zone).error());
    streams.writer_zone = std::move(*zone);
  }
  const Compression compression{postscript_.compression, postscript_.compression_block_size};
  const uint64_t stripe_end = s.offset + s.index_length + s.data_length;
  uint64_t offset = s.offset;
  std::vector<parquet::ByteRange> ranges;
  std::vector<std::pair<const Stream*, uint64_t>> to_read;
  for (const Stream& stream : footer.streams) {
    if (stream.length > stripe_end - offset) {
      return fail(Error(ErrorKind::kCorruptData,
                        fmt::format("the {}-byte stream of column {} at offset {} runs past the "
                                    "stripe's end at {}",
                                    stream.length, stream.column, offset, stripe_end)));
    }
    if (stream.column < wanted.size() && wanted[stream.column] && IsReadStream(stream.kind)) {
      ranges.push_back({offset, stream.length});
      to_read.emplace_back(&stream, offset);
    }
    offset += stream.length;
  }
  source_->WillRead(ranges);
  for (const auto& [stream, at] : to_read) {
    auto raw = source_->Read(at, stream->length);
    if (!raw) return fail(std::move(raw).error());
    auto decoded = DecompressStream(compression, *raw, options_.max_stream_bytes);
    if (!decoded) {
      return fail(std::move(decoded.error().AddContext(
          fmt::format("the stream of column {} at offset {}", stream->column, at))));
    }
    if (!decoded->is_owned) {
      decoded->owned = std::move(*raw);
      decoded->is_owned = true;
    }
    if (!streams.streams.emplace(std::pair(stream->column, stream->kind), std::move(*decoded))
             .second) {
      return fail(Error(ErrorKind::kCorruptData, fmt::format("column {} has two streams of kind {}",
                                                             stream->column, stream->kind)));
    }
  }
  const auto rows = static_cast<int64_t>(s.number_of_rows);
  std::vector<Field> fields;
  std::vector<Array> arrays;
  for (int index : columns) {
    const Field& field = schema_->field(index);
    auto array = ReadColumn(streams, root.subtypes[index], field.type, rows, nullptr);
    if (!array) return fail(std::move(array).error());
    fields.push_back(field);
    arrays.push_back(std::move(*array));
  }
  auto batch =
      RecordBatch::Make(std::make_shared<BatchSchema>(std::move(fields)), std::move(arrays), rows);
  if (!batch) return fail(std::move(batch).error());
  return batch;
}

}  // namespace floe::orc
