#include "floe/table/write/deletion_vector_writer.h"

#include <algorithm>

#include "floe/table/write/portable_roaring.h"
#include "floe/util/crc32.h"
#include "floe/util/json.h"

namespace floe::table {
namespace {

constexpr std::string_view kPuffinMagic = "PFA1";
constexpr std::string_view kVectorMagic = "\xD1\xD3\x39\x64";

void PutBigEndian32(std::string& out, uint32_t value) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<char>(value >> shift));
}

void PutLittleEndian32(std::string& out, uint32_t value) {
  for (int shift = 0; shift < 32; shift += 8) out.push_back(static_cast<char>(value >> shift));
}

std::string PuffinLocation(std::string location) {
  const size_t slash = location.rfind('/');
  const size_t dot = location.rfind('.');
  if (dot != std::string::npos && (slash == std::string::npos || dot > slash)) {
    location.resize(dot);
  }
  return location + ".puffin";
}

}  // namespace

DeletionVectorWriter::DeletionVectorWriter(RollingFileWriterOptions options)
    : options_(std::move(options)) {}

void DeletionVectorWriter::Delete(std::string_view path, int64_t pos) {
  if (pos < 0) return;
  auto [it, inserted] =
      path_index_.try_emplace(std::string(path), static_cast<uint32_t>(paths_.size()));
  if (inserted) paths_.emplace_back(path);
  entries_.push_back({it->second, pos});
}

Result<std::vector<manifest::DataFile>> DeletionVectorWriter::Close() {
  std::vector<manifest::DataFile> out;
  if (entries_.empty()) return out;
  std::sort(entries_.begin(), entries_.end(), [&](const Entry& a, const Entry& b) {
    return a.path != b.path ? paths_[a.path] < paths_[b.path] : a.pos < b.pos;
  });
  entries_.erase(std::unique(entries_.begin(), entries_.end(),
                             [](const Entry& a, const Entry& b) {
                               return a.path == b.path && a.pos == b.pos;
                             }),
                 entries_.end());

  const PartitionSpec& spec = options_.spec ? *options_.spec : *PartitionSpec::Unpartitioned();
  FLOE_ASSIGN_OR_RETURN(std::string named, options_.files->NextLocation(spec, options_.partition));
  const std::string location = PuffinLocation(std::move(named));

  std::string bytes(kPuffinMagic);
  Json blobs = Json::MakeArray();
  std::vector<int64_t> positions;
  for (size_t begin = 0; begin < entries_.size();) {
    size_t end = begin;
    positions.clear();
    while (end < entries_.size() && entries_[end].path == entries_[begin].path) {
      positions.push_back(entries_[end++].pos);
    }
    const std::string& data_file = paths_[entries_[begin].path];
    std::string body(kVectorMagic);
    body += EncodePortableRoaring64(positions);
    const int64_t offset = static_cast<int64_t>(bytes.size());
    PutBigEndian32(bytes, static_cast<uint32_t>(body.size()));
    bytes += body;
    PutBigEndian32(bytes, Crc32(body));
    const int64_t length = static_cast<int64_t>(bytes.size()) - offset;

    Json properties = Json::MakeObject();
    properties.Set("referenced-data-file", Json(data_file));
    properties.Set("cardinality", Json(std::to_string(positions.size())));
    Json fields = Json::MakeArray();
    fields.as_array().push_back(Json(int64_t{kRowPositionFieldId}));
    Json blob = Json::MakeObject();
    blob.Set("type", Json("deletion-vector-v1"));
    blob.Set("fields", std::move(fields));
    blob.Set("snapshot-id", Json(int64_t{-1}));
    blob.Set("sequence-number", Json(int64_t{-1}));
    blob.Set("offset", Json(offset));
    blob.Set("length", Json(length));
    blob.Set("properties", std::move(properties));
    blobs.as_array().push_back(std::move(blob));

    manifest::DataFile file = options_.file_template;
    file.content = manifest::FileContent::kPositionDeletes;
    file.file_path = location;
    file.file_format = "puffin";
    file.spec_id = options_.spec ? options_.spec->spec_id() : 0;
    file.partition = options_.partition;
    file.record_count = static_cast<int64_t>(positions.size());
    file.referenced_data_file = data_file;
    file.content_offset = offset;
    file.content_size_in_bytes = length;
    file.equality_ids.clear();
    file.sort_order_id.reset();
    out.push_back(std::move(file));
    begin = end;
  }
  Json footer = Json::MakeObject();
  footer.Set("blobs", std::move(blobs));
  Json file_properties = Json::MakeObject();
  file_properties.Set("created-by", Json("floe"));
  footer.Set("properties", std::move(file_properties));
  const std::string payload = footer.Dump();
  bytes += kPuffinMagic;
  bytes += payload;
  PutLittleEndian32(bytes, static_cast<uint32_t>(payload.size()));
  PutLittleEndian32(bytes, 0);  // flags: the footer is not compressed
  bytes += kPuffinMagic;

  FLOE_ASSIGN_OR_RETURN(auto output, options_.io->NewOutputFile(location));
  FLOE_ASSIGN_OR_RETURN(auto writer, output->Create());
  FLOE_RETURN_IF_ERROR(writer->Write(std::as_bytes(std::span(bytes.data(), bytes.size()))));
  FLOE_RETURN_IF_ERROR(writer->Close());
  for (manifest::DataFile& file : out) file.file_size_in_bytes = static_cast<int64_t>(bytes.size());
  entries_.clear();
  paths_.clear();
  path_index_.clear();
  return out;
}

}  // namespace floe::table
