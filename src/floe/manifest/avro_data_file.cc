#include "floe/manifest/avro_data_file.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <map>

#include "floe/batch/builder.h"
#include "floe/format/avro/batch_decoder.h"
#include "floe/format/avro/batch_encoder.h"
#include "floe/io/file_io.h"
#include "floe/manifest/avro_data_schema.h"
#include "floe/spec/schema_json.h"

namespace floe::manifest {
namespace {

// Value, null and NaN counts of one leaf column, accumulated over batches.
struct LeafCounts {
  int64_t values = 0;
  int64_t nulls = 0;
  int64_t nans = 0;
  bool floating = false;
};

// Counts rows [begin, end) of array a, typed by the Iceberg field f. outer_null (when not null)
// marks rows whose enclosing struct is null, indexed from begin.
void CountValues(const NestedField& f, const floe::Array& a, int64_t begin, int64_t end,
                 const std::vector<uint8_t>* outer_null, std::map<int32_t, LeafCounts>& out) {
  auto is_null = [&](int64_t i) {
    return (outer_null != nullptr && (*outer_null)[static_cast<size_t>(i - begin)]) || a.IsNull(i);
  };
  switch (f.type->id()) {
    case TypeId::kStruct: {
      std::vector<uint8_t> nulls(static_cast<size_t>(end - begin));
      for (int64_t i = begin; i < end; ++i) nulls[static_cast<size_t>(i - begin)] = is_null(i);
      const auto& s = static_cast<const StructType&>(*f.type);
      for (size_t c = 0; c < s.fields().size(); ++c) {
        CountValues(s.fields()[c], a.field(static_cast<int>(c)), begin, end, &nulls, out);
      }
      return;
    }
    case TypeId::kList: {
      const auto& l = static_cast<const ListType&>(*f.type);
      if (end > begin) {
        CountValues(l.element(), a.list_values(), a.ValueOffset(begin), a.ValueOffset(end), nullptr,
                    out);
      }
      return;
    }
    case TypeId::kMap: {
      const auto& m = static_cast<const MapType&>(*f.type);
      if (end > begin) {
        const floe::Array& entries = a.list_values();
        CountValues(m.key(), entries.child(0), a.ValueOffset(begin), a.ValueOffset(end), nullptr,
                    out);
        CountValues(m.value(), entries.child(1), a.ValueOffset(begin), a.ValueOffset(end), nullptr,
                    out);
      }
      return;
    }
    default:
      break;
  }
  LeafCounts& c = out[f.id];
  c.values += end - begin;
  if (outer_null == nullptr && a.null_count() == 0 && a.offset() == 0 && begin == 0 &&
      end == a.length()) {
    // The common case of a top-level column without nulls needs no per-value pass.
  } else {
    for (int64_t i = begin; i < end; ++i) c.nulls += is_null(i);
  }
  if (f.type->id() == TypeId::kFloat || f.type->id() == TypeId::kDouble) {
    c.floating = true;
    for (int64_t i = begin; i < end; ++i) {
      if (is_null(i)) continue;
      double v = f.type->id() == TypeId::kFloat ? a.Value<float>(i) : a.Value<double>(i);
      c.nans += std::isnan(v);
    }
  }
}

Result<avro::AvroCodec> CodecFromProperty(std::string_view name) {
  if (name == "uncompressed" || name == "none") return avro::AvroCodec::kNull;
  if (name == "gzip" || name == "deflate") return avro::AvroCodec::kDeflate;
  if (name == "snappy") return avro::AvroCodec::kSnappy;
  if (name == "zstd") return avro::AvroCodec::kZstandard;
  return InvalidArgument("{} '{}' is not one of uncompressed, gzip, snappy, zstd",
                         kAvroCompressionCodec, name);
}

}  // namespace

Result<AvroDataWriterOptions> AvroDataWriterOptions::FromProperties(const StringMap& properties) {
  AvroDataWriterOptions options;
  if (auto it = properties.find(kAvroCompressionCodec); it != properties.end()) {
    std::string lower;
    for (char c : it->second) lower.push_back(static_cast<char>(std::tolower(c)));
    FLOE_ASSIGN_OR_RETURN(options.codec, CodecFromProperty(lower));
  }
  if (auto it = properties.find(kAvroCompressionLevel); it != properties.end()) {
    const std::string& text = it->second;
    int level = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), level);
    if (ec != std::errc() || end != text.data() + text.size()) {
      return InvalidArgument("{} '{}' is not an integer", kAvroCompressionLevel, text);
    }
    options.level = level;
  }
  return options;
}

AvroDataWriter::AvroDataWriter() = default;
AvroDataWriter::~AvroDataWriter() = default;

Result<std::unique_ptr<AvroDataWriter>> AvroDataWriter::Open(io::OutputFile& file, SchemaPtr schema,
                                                             AvroDataWriterOptions options) {
  if (schema == nullptr) return InvalidArgument("no schema for the Avro data file");
  FLOE_ASSIGN_OR_RETURN(std::unique_ptr<io::FileWriter> created, file.Create());
  return Open(std::move(created), std::move(schema), std::move(options));
}

Result<std::unique_ptr<AvroDataWriter>> AvroDataWriter::Open(std::unique_ptr<io::FileWriter> file,
                                                             SchemaPtr schema,
                                                             AvroDataWriterOptions options) {
  if (schema == nullptr) return InvalidArgument("no schema for the Avro data file");
  if (file == nullptr) return InvalidArgument("no file for the Avro data file");
  std::unique_ptr<AvroDataWriter> w(new AvroDataWriter());
  w->schema_ = std::move(schema);
  FLOE_ASSIGN_OR_RETURN(w->avro_schema_, ToAvroDataSchema(*w->schema_));
  FLOE_ASSIGN_OR_RETURN(BatchSchemaPtr batch_schema, AvroBatchSchema(*w->schema_));
  FLOE_ASSIGN_OR_RETURN(w->encoder_,
                        avro::BatchEncoder::Make(w->avro_schema_->root(), *batch_schema));
  w->file_ = std::move(file);
  avro::ContainerWriteOptions container;
  container.codec = options.codec;
  container.level = options.level;
  container.block_size = options.block_size;
  container.sync = options.sync;
  container.metadata.emplace_back("iceberg.schema", SchemaToJson(*w->schema_).Dump());
  io::FileWriter* sink = w->file_.get();
  FLOE_ASSIGN_OR_RETURN(
      w->writer_,
      avro::ContainerWriter::Open(
          w->avro_schema_, [sink](std::span<const std::byte> bytes) { return sink->Write(bytes); },
          std::move(container)));
  return w;
}

uint64_t AvroDataWriter::bytes_written() const { return writer_->bytes_written(); }

Status AvroDataWriter::Write(const RecordBatch& batch) {
  if (closed_) return InvalidArgument("write to a closed Avro data file");
  Status written = encoder_->Write(batch, *writer_);
  if (!written) {
    return std::unexpected(std::move(written.error()).AddContext(file_->location()));
  }
  Count(batch);
  metrics_.record_count += batch.num_rows();
  return Ok();
}

void AvroDataWriter::Count(const RecordBatch& batch) {
  std::map<int32_t, LeafCounts> counts;
  for (size_t c = 0; c < schema_->fields().size(); ++c) {
    CountValues(schema_->fields()[c], batch.column(static_cast<int>(c)), 0, batch.num_rows(),
                nullptr, counts);
  }
  auto add = [](CountMap& map, int32_t id, int64_t n) {
    for (auto& [key, value] : map) {
      if (key == id) {
        value += n;
        return;
      }
    }
    map.emplace_back(id, n);
  };
  for (const auto& [id, c] : counts) {
    add(metrics_.value_counts, id, c.values);
    add(metrics_.null_value_counts, id, c.nulls);
    if (c.floating) add(metrics_.nan_value_counts, id, c.nans);
  }
}

Result<AvroDataFileMetrics> AvroDataWriter::Close() {
  if (closed_) return InvalidArgument("Avro data file closed twice");
  closed_ = true;
  FLOE_RETURN_IF_ERROR(writer_->Close());
  FLOE_RETURN_IF_ERROR(file_->Close());
  metrics_.file_size_in_bytes = static_cast<int64_t>(writer_->bytes_written());
  return metrics_;
}

AvroDataReader::AvroDataReader() = default;
AvroDataReader::~AvroDataReader() = default;

Result<std::unique_ptr<AvroDataReader>> AvroDataReader::Open(const io::InputFile& file,
                                                             SchemaPtr projection) {
  if (projection == nullptr) return InvalidArgument("no projection to read");
  std::unique_ptr<AvroDataReader> r(new AvroDataReader());
  r->projection_ = std::move(projection);
  FLOE_ASSIGN_OR_RETURN(int64_t size, file.Size());
  avro::ContainerReadOptions options;
  FLOE_ASSIGN_OR_RETURN(options.reader_schema, ToAvroDataSchema(*r->projection_));
  const io::InputFile* input = &file;
  FLOE_ASSIGN_OR_RETURN(r->reader_,
                        avro::ContainerReader::Open(
                            [input](uint64_t offset, std::span<std::byte> out) {
                              return input->ReadAt(static_cast<int64_t>(offset), out);
                            },
                            static_cast<uint64_t>(size), file.location(), std::move(options)));
  FLOE_ASSIGN_OR_RETURN(r->row_type_, avro::ToBatchType(r->reader_->resolved().reader().root()));
  r->batch_schema_ = std::make_shared<const BatchSchema>(r->row_type_->fields());
  return r;
}

Result<SchemaPtr> AvroDataReader::FileSchema() const {
  if (auto json = reader_->Metadata("iceberg.schema")) {
    FLOE_ASSIGN_OR_RETURN(Json parsed, Json::Parse(*json));
    return SchemaFromJson(parsed);
  }
  return FromAvroDataSchema(*reader_->writer_schema());
}

Result<std::optional<RecordBatch>> AvroDataReader::Next() {
  while (true) {
    FLOE_ASSIGN_OR_RETURN(bool more, reader_->NextBlock());
    if (!more) return std::optional<RecordBatch>();
    if (reader_->block_count() == 0) continue;
    auto builder = MakeBuilder(row_type_);
    avro::Decoder decoder(reader_->block_data(), reader_->block_offset());
    Status decoded = avro::DecodeToBuilder(reader_->resolved().root(), decoder,
                                           reader_->block_count(), *builder);
    if (!decoded) return std::unexpected(std::move(decoded.error()).AddContext(reader_->name()));
    FLOE_ASSIGN_OR_RETURN(floe::Array rows, builder->Finish());
    std::vector<floe::Array> columns;
    for (int c = 0; c < rows.num_children(); ++c) columns.push_back(rows.field(c));
    FLOE_ASSIGN_OR_RETURN(RecordBatch batch,
                          RecordBatch::Make(batch_schema_, std::move(columns), rows.length()));
    return std::optional<RecordBatch>(std::move(batch));
  }
}

}  // namespace floe::manifest
