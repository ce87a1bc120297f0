#include "floe/table/scan/position_delete_loader.h"

#include <algorithm>
#include <cctype>

#include "floe/table/scan/data_file_reader.h"
#include "floe/table/scan/puffin_reader.h"

namespace floe::table {

namespace {

constexpr int32_t kFilePathId = 2147483546;
constexpr int32_t kPosId = 2147483545;

const SchemaPtr& PositionDeleteSchema() {
  static const SchemaPtr schema = std::make_shared<const Schema>(
      std::vector<NestedField>{types::Optional(kFilePathId, "file_path", types::String()),
                               types::Optional(kPosId, "pos", types::Long())});
  return schema;
}

bool IsPuffin(std::string_view format) {
  return format.size() == 6 && std::equal(format.begin(), format.end(), "puffin",
                                          [](char a, char b) { return std::tolower(a) == b; });
}

// The path without "scheme://authority": writers on HDFS record a data file both ways (Impala's
// manifests say /warehouse/..., its delete rows hdfs://host:port/warehouse/...).
std::string_view WithoutAuthority(std::string_view path) {
  const size_t scheme = path.find("://");
  if (scheme == std::string_view::npos) return path;
  const size_t slash = path.find('/', scheme + 3);
  return slash == std::string_view::npos ? path : path.substr(slash);
}

}  // namespace

Result<std::shared_ptr<const PositionDeleteLoader::PositionsByPath>> PositionDeleteLoader::Load(
    const manifest::DataFile& delete_file) {
  if (auto it = files_.find(delete_file.file_path); it != files_.end()) return it->second;
  DataFileReadOptions options;
  options.file_size = delete_file.file_size_in_bytes;
  FLOE_ASSIGN_OR_RETURN(auto reader,
                        DataFileReader::Open(*io_, delete_file.file_path, delete_file.file_format,
                                             PositionDeleteSchema(), std::move(options)));
  auto positions = std::make_shared<PositionsByPath>();
  std::string last_path;
  std::vector<int64_t>* last = nullptr;
  while (true) {
    FLOE_ASSIGN_OR_RETURN(auto batch, reader->Next());
    if (!batch) break;
    const Array& paths = batch->batch.column(0);
    const Array& pos = batch->batch.column(1);
    for (int64_t i = 0; i < batch->batch.num_rows(); ++i) {
      // The spec makes both required; rows that break it delete nothing.
      if (paths.IsNull(i) || pos.IsNull(i)) continue;
      const std::string_view path = paths.GetView(i);
      if (last == nullptr || path != last_path) {
        last_path.assign(path);
        last = &(*positions)[last_path];
      }
      last->push_back(pos.Value<int64_t>(i));
    }
  }
  std::vector<std::pair<std::string, std::vector<int64_t>>> aliases;
  for (const auto& [path, list] : *positions) {
    const std::string_view bare = WithoutAuthority(path);
    if (bare.size() != path.size() && !positions->contains(std::string(bare))) {
      aliases.emplace_back(std::string(bare), list);
    }
  }
  for (auto& [path, list] : aliases) positions->emplace(std::move(path), std::move(list));
  files_.emplace(delete_file.file_path, positions);
  return positions;
}

Status PositionDeleteLoader::AddTo(const manifest::DataFile& delete_file,
                                   const std::string& data_path, PositionDeleteIndex& index) {
  if (IsPuffin(delete_file.file_format)) {
    if (!delete_file.content_offset || !delete_file.content_size_in_bytes) {
      return CorruptData("{}: a deletion vector without content_offset and content_size_in_bytes",
                         delete_file.file_path);
    }
    FLOE_ASSIGN_OR_RETURN(auto file, io_->NewInputFile(delete_file.file_path));
    return ReadDeletionVector(*file, *delete_file.content_offset,
                              *delete_file.content_size_in_bytes, index);
  }
  FLOE_ASSIGN_OR_RETURN(auto positions, Load(delete_file));
  auto it = positions->find(data_path);
  if (it == positions->end()) it = positions->find(std::string(WithoutAuthority(data_path)));
  if (it != positions->end()) {
    for (int64_t p : it->second) index.Add(p);
  }
  return Ok();
}

}  // namespace floe::table
