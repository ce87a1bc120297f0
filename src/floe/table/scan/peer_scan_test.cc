// Every Iceberg table under ../shared/testdata (see its MANIFEST.txt) scans to the same rows in
// floe as in ClickHouse. The tables record locations of the machines that wrote them, which
// ClickHouse cannot follow, so ClickHouse reads a relocated copy (metadata, manifest lists,
// manifests and position delete files rewritten to the copy's place) while floe reads the
// original through a location mapping. Rows are compared as sorted multisets after normalizing
// the value forms of both engines per Iceberg type. Tables that ClickHouse cannot read are skipped
// with the reason printed; tables floe cannot read are listed too.

#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>

#include "floe/batch/value.h"
#include "floe/format/avro/container.h"
#include "floe/format/avro/datum.h"
#include "floe/format/parquet/reader/batch_reader.h"
#include "floe/format/parquet/writer/parquet_writer.h"
#include "floe/io/local_file_io.h"
#include "floe/spec/table_metadata_io.h"
#include "floe/table/scan/table_scan.h"
#include "floe/table/scan/task_reader.h"
#include "floe/testing/peers.h"
#include "floe/testing/testing.h"
#include "floe/util/json.h"

namespace floe::table {
namespace {

namespace fs = std::filesystem;
using floe::testing::TempDir;
using floe::testing::TestDataDir;

constexpr int32_t kFilePathId = 2147483546;

std::string Replace(std::string text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

// The relocated copy: every location under `from` now names the same file under `to`.
class Relocator {
 public:
  Relocator(std::string from, std::string to) : from_(std::move(from)), to_(std::move(to)) {}

  std::string Map(const std::string& s) const {
    if (!s.starts_with(from_)) return s;
    return to_ + s.substr(from_.size());
  }

  Status Run(const fs::path& dir) {
    // Position delete files first: their sizes change, and manifests record sizes.
    for (const auto& entry : fs::recursive_directory_iterator(dir)) {
      if (entry.path().extension() == ".parquet")
        FLOE_RETURN_IF_ERROR(RewriteDeletes(entry.path()));
    }
    for (const auto& entry : fs::directory_iterator(dir / "metadata")) {
      const std::string name = entry.path().filename().string();
      if (name.ends_with(".metadata.json")) {
        std::string text = floe::testing::ReadFileOrDie(entry.path());
        std::ofstream(entry.path(), std::ios::trunc)
            << Replace(Replace(text, "\"" + from_ + "/", "\"" + to_ + "/"), "\"" + from_ + "\"",
                       "\"" + to_ + "\"");
      } else if (name.ends_with(".avro")) {
        FLOE_RETURN_IF_ERROR(RewriteAvro(entry.path()));
      }
    }
    return Ok();
  }

 private:
  Status RewriteDeletes(const fs::path& path) {
    FLOE_ASSIGN_OR_RETURN(auto reader, parquet::ParquetBatchReader::OpenPath(path.string()));
    const int column = reader->schema()->FindFieldIndexById(kFilePathId);
    if (column < 0) return Ok();
    const BatchSchemaPtr schema = reader->schema();
    FLOE_ASSIGN_OR_RETURN(auto batches, reader->ReadAll());
    std::vector<RecordBatch> rewritten;
    for (const RecordBatch& batch : batches) {
      std::vector<Array> columns = batch.columns();
      std::vector<Value> paths;
      for (int64_t i = 0; i < batch.num_rows(); ++i) {
        paths.push_back(Map(std::string(batch.column(column).GetView(i))));
      }
      FLOE_ASSIGN_OR_RETURN(columns[column], MakeArray(batch.field(column).type, paths));
      FLOE_ASSIGN_OR_RETURN(RecordBatch out, RecordBatch::Make(batch.schema(), columns));
      rewritten.push_back(std::move(out));
    }
    reader.reset();
    io::LocalFileIO io;
    fs::remove(path);
    FLOE_ASSIGN_OR_RETURN(auto out, io.NewOutputFile(path.string()));
    FLOE_ASSIGN_OR_RETURN(auto file, out->Create());
    FLOE_ASSIGN_OR_RETURN(auto writer, parquet::ParquetWriter::Make(std::move(file), schema, {}));
    for (const RecordBatch& batch : rewritten) FLOE_RETURN_IF_ERROR(writer->Write(batch));
    FLOE_ASSIGN_OR_RETURN(auto result, writer->Close());
    sizes_[path.string()] = result.file_size;
    return Ok();
  }

  void Walk(avro::Datum& datum, const avro::Node& node) {
    switch (node.type) {
      case avro::Type::kString:
        if (datum.is<std::string>()) datum = Map(datum.as<std::string>());
        return;
      case avro::Type::kRecord: {
        auto& record = datum.as<avro::Record>();
        int path = -1, size = -1;
        for (size_t i = 0; i < node.fields.size() && i < record.fields.size(); ++i) {
          Walk(record.fields[i], *node.fields[i].type);
          if (node.fields[i].name == "file_path") path = static_cast<int>(i);
          if (node.fields[i].name == "file_size_in_bytes") size = static_cast<int>(i);
        }
        if (path >= 0 && size >= 0 && record.fields[path].is<std::string>()) {
          auto it = sizes_.find(record.fields[path].as<std::string>());
          if (it != sizes_.end()) record.fields[size] = avro::Datum(int64_t{it->second});
        }
        return;
      }
      case avro::Type::kArray:
        for (auto& item : datum.as<avro::Array>().items) Walk(item, *node.items);
        return;
      case avro::Type::kMap:
        for (auto& [key, value] : datum.as<avro::Map>().entries) Walk(value, *node.values);
        return;
      case avro::Type::kUnion: {
        auto& u = datum.as<avro::Union>();
        if (u.value) Walk(*u.value, *node.branches[u.branch]);
        return;
      }
      default:
        return;
    }
  }

  Status RewriteAvro(const fs::path& path) {
    const std::string bytes = floe::testing::ReadFileOrDie(path);
    FLOE_ASSIGN_OR_RETURN(
        auto reader, avro::ContainerReader::Open(std::as_bytes(std::span(bytes)), path.string()));
    std::string out;
    avro::ContainerWriteOptions options;
    options.codec = reader->codec() == avro::AvroCodec::kNull ? avro::AvroCodec::kNull
                                                              : avro::AvroCodec::kDeflate;
    for (const auto& [key, value] : reader->metadata()) {
      if (key != "avro.schema" && key != "avro.codec") options.metadata.emplace_back(key, value);
    }
    FLOE_ASSIGN_OR_RETURN(auto writer, avro::ContainerWriter::Open(
                                           reader->writer_schema(),
                                           [&out](std::span<const std::byte> b) {
                                             out.append(reinterpret_cast<const char*>(b.data()),
                                                        b.size());
                                             return Ok();
                                           },
                                           options));
    avro::Datum datum;
    while (true) {
      FLOE_ASSIGN_OR_RETURN(bool more, reader->Next(datum));
      if (!more) break;
      Walk(datum, reader->writer_schema()->root());
      FLOE_RETURN_IF_ERROR(writer->Append(datum));
    }
    FLOE_RETURN_IF_ERROR(writer->Close());
    std::ofstream(path, std::ios::trunc | std::ios::binary) << out;
    return Ok();
  }

  std::string from_, to_;
  std::map<std::string, int64_t> sizes_;
};

std::string TrimFraction(std::string s) {
  if (s.ends_with("+00:00")) s.resize(s.size() - 6);
  if (s.ends_with("Z")) s.pop_back();
  std::replace(s.begin(), s.end(), 'T', ' ');
  if (s.find('.') != std::string::npos) {
    while (s.ends_with("0")) s.pop_back();
    if (s.ends_with(".")) s.pop_back();
  }
  return s;
}

std::string Hex(std::string_view bytes) {
  std::string out;
  for (unsigned char c : bytes) out += fmt::format("{:02x}", c);
  return out;
}

// Both engines' values in one form per Iceberg type.
Json Normalize(const Json& v, const Type& type, bool from_floe) {
  if (v.is_null()) return Json();
  const std::string text = v.is_string() ? v.as_string() : v.Dump();
  switch (type.id()) {
    case TypeId::kBoolean:
      return Json(text == "true" || text == "1");
    case TypeId::kInt:
    case TypeId::kLong:
      return Json(text);
    case TypeId::kFloat:
    case TypeId::kDouble: {
      std::string lower = text;
      std::transform(lower.begin(), lower.end(), lower.begin(), ::tolower);
      if (lower.find("nan") != std::string::npos) return Json("NaN");
      if (lower.find("inf") != std::string::npos) return Json(lower[0] == '-' ? "-Inf" : "Inf");
      const double d = std::strtod(text.c_str(), nullptr);
      return Json(type.id() == TypeId::kFloat ? fmt::format("{:.6g}", d)
                                              : fmt::format("{:.14g}", d));
    }
    case TypeId::kDecimal: {
      std::string s = text;
      if (s.find('.') != std::string::npos) {
        while (s.ends_with("0")) s.pop_back();
        if (s.ends_with(".")) s.pop_back();
      }
      if (s == "-0") s = "0";
      return Json(s);
    }
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      return Json(TrimFraction(text));
    case TypeId::kUuid: {
      std::string s = text;
      s.erase(std::remove(s.begin(), s.end(), '-'), s.end());
      return Json(s);
    }
    case TypeId::kFixed:
    case TypeId::kBinary:
      return Json(from_floe ? text : Hex(text));
    case TypeId::kStruct: {
      Json out = Json::Object{};
      for (const NestedField& f : static_cast<const StructType&>(type).fields()) {
        const Json* member = v.is_object() ? v.Find(f.name) : nullptr;
        out.Set(f.name, member ? Normalize(*member, *f.type, from_floe) : Json());
      }
      return out;
    }
    case TypeId::kList: {
      Json out = Json::Array{};
      if (v.is_array()) {
        for (const Json& e : v.as_array()) {
          out.Push(Normalize(e, *static_cast<const ListType&>(type).element().type, from_floe));
        }
      }
      return out;
    }
    case TypeId::kMap: {
      const auto& map = static_cast<const MapType&>(type);
      std::vector<std::string> entries;
      if (from_floe && v.is_array()) {
        for (const Json& e : v.as_array()) {
          entries.push_back(Normalize(*e.Find("key"), *map.key().type, true).Dump() + "=" +
                            Normalize(*e.Find("value"), *map.value().type, true).Dump());
        }
      } else if (v.is_object()) {
        for (const auto& [key, value] : v.as_object()) {
          entries.push_back(Normalize(Json(key), *map.key().type, false).Dump() + "=" +
                            Normalize(value, *map.value().type, false).Dump());
        }
      }
      std::sort(entries.begin(), entries.end());
      Json out = Json::Array{};
      for (auto& e : entries) out.Push(Json(e));
      return out;
    }
    default:
      return Json(text);
  }
}

std::string NormalizeRow(const Json& row, const Schema& schema, bool from_floe) {
  Json out = Json::Array{};
  for (const NestedField& f : schema.fields()) {
    const Json* v = row.Find(f.name);
    out.Push(v ? Normalize(*v, *f.type, from_floe) : Json());
  }
  return out.Dump();
}

struct FloeResult {
  SchemaPtr schema;
  std::vector<std::string> rows;
  // Columns ClickHouse leaves unfilled: identity partition sources (files written without them)
  // and fields with v3 initial defaults.
  std::vector<std::string> unfilled_by_clickhouse;
  // Where floe failed: planning (metadata, manifests) or reading the tasks.
  std::string failed_phase;
};

bool HasDefault(const NestedField& field) {
  if (field.initial_default) return true;
  if (field.type->id() == TypeId::kStruct) {
    for (const NestedField& f : static_cast<const StructType&>(*field.type).fields()) {
      if (HasDefault(f)) return true;
    }
  }
  return false;
}

// The rows without the listed columns.
std::vector<std::string> Without(const std::vector<std::string>& rows, const Schema& schema,
                                 const std::vector<std::string>& columns) {
  std::vector<std::string> out;
  for (const std::string& row : rows) {
    Json parsed = *Json::Parse(row);
    Json kept = Json::Array{};
    const auto fields = schema.fields();
    for (size_t i = 0; i < fields.size(); ++i) {
      if (std::find(columns.begin(), columns.end(), fields[i].name) == columns.end()) {
        kept.Push(parsed.as_array()[i]);
      }
    }
    out.push_back(kept.Dump());
  }
  std::sort(out.begin(), out.end());
  return out;
}

Status PlanAndRead(const fs::path& dir, FloeResult& result) {
  auto base = std::make_shared<io::LocalFileIO>();
  FLOE_ASSIGN_OR_RETURN(std::string location, FindCurrentMetadataLocation(*base, dir.string()));
  FLOE_ASSIGN_OR_RETURN(TableMetadataPtr metadata, ReadTableMetadata(*base, location));
  LocationMapping mapping = LocationMapping::ForTable(*metadata, dir.string());
  auto io = mapping.empty() ? std::shared_ptr<io::FileIO>(base) : MapLocations(base, mapping);
  TableScan scan(metadata, io);
  scan.WithLocationMapping(mapping);
  FLOE_ASSIGN_OR_RETURN(SchemaPtr schema, scan.schema());
  for (const auto& spec : metadata->partition_specs()) {
    for (const PartitionField& field : spec->fields()) {
      const NestedField* source = schema->FindField(field.source_id());
      if (field.transform.is_identity() && source) {
        result.unfilled_by_clickhouse.push_back(source->name);
      }
    }
  }
  for (const NestedField& field : schema->fields()) {
    if (HasDefault(field)) result.unfilled_by_clickhouse.push_back(field.name);
  }
  auto& unfilled = result.unfilled_by_clickhouse;
  std::sort(unfilled.begin(), unfilled.end());
  unfilled.erase(std::unique(unfilled.begin(), unfilled.end()), unfilled.end());
  result.failed_phase = "planning";
  FLOE_ASSIGN_OR_RETURN(auto tasks, scan.PlanTasks());
  result.failed_phase = "reading";
  TaskReadOptions options;
  if (auto it = metadata->properties().find("schema.name-mapping.default");
      it != metadata->properties().end()) {
    FLOE_ASSIGN_OR_RETURN(options.name_mapping, ParseNameMapping(it->second));
  }
  TaskReader reader(io, schema, schema, options);
  result.schema = schema;
  for (const auto& group : tasks) {
    FLOE_RETURN_IF_ERROR(reader.Read(group, [&](RecordBatch batch) -> Status {
      for (int64_t i = 0; i < batch.num_rows(); ++i) {
        FLOE_ASSIGN_OR_RETURN(Json row, Json::Parse(RowView(batch, i).ToJson()));
        result.rows.push_back(NormalizeRow(row, *schema, true));
      }
      return Ok();
    }));
  }
  std::sort(result.rows.begin(), result.rows.end());
  result.failed_phase.clear();
  return Ok();
}

Result<std::vector<std::string>> ScanWithClickHouse(const fs::path& dir, const SchemaPtr& schema) {
  auto base = std::make_shared<io::LocalFileIO>();
  FLOE_ASSIGN_OR_RETURN(std::string location, FindCurrentMetadataLocation(*base, dir.string()));
  FLOE_ASSIGN_OR_RETURN(TableMetadataPtr metadata, ReadTableMetadata(*base, location));
  TempDir copy;
  const fs::path target = copy.path() / "t";
  fs::copy(dir, target, fs::copy_options::recursive);
  for (const auto& e : fs::recursive_directory_iterator(target)) {
    fs::permissions(e.path(), fs::perms::owner_write, fs::perm_options::add);
  }
  std::string from = metadata->location();
  while (from.size() > 1 && from.ends_with("/")) from.pop_back();
  Relocator relocator(from, target.string());
  FLOE_RETURN_IF_ERROR(relocator.Run(target));
  FLOE_ASSIGN_OR_RETURN(
      std::string out,
      floe::testing::RunPeer("ch", {fmt::format("SELECT * FROM icebergLocal('{}') FORMAT "
                                                "JSONEachRow",
                                                target.string())}));
  std::vector<std::string> rows;
  size_t start = 0;
  while (start < out.size()) {
    size_t end = out.find('\n', start);
    if (end == std::string::npos) end = out.size();
    if (end > start) {
      FLOE_ASSIGN_OR_RETURN(Json row,
                            Json::Parse(std::string_view(out).substr(start, end - start)));
      rows.push_back(NormalizeRow(row, *schema, false));
    }
    start = end + 1;
  }
  std::sort(rows.begin(), rows.end());
  return rows;
}

TEST(PeerScan, EveryTestTableMatchesClickHouse) {
  if (!floe::testing::PeerInstalled("chdb")) GTEST_SKIP() << "ClickHouse (chdb) is not installed";
  const auto tables = floe::testing::TestDataTables();
  ASSERT_GT(tables.size(), 50u);
  int matched = 0;
  std::vector<std::string> skipped, partial, not_planned;
  for (const std::string& relative : tables) {
    const fs::path dir = TestDataDir() / relative;
    FloeResult floe_rows;
    auto status = PlanAndRead(dir, floe_rows);
    if (!status) {
      const std::string reason = relative + ": " + status.error().message().substr(0, 240);
      if (status.error().kind() == ErrorKind::kUnsupported) {
        skipped.push_back("floe: " + reason);
      } else if (floe_rows.failed_phase == "reading" &&
                 status.error().kind() != ErrorKind::kNotFound) {
        ADD_FAILURE() << reason;
      } else {
        // Metadata, planning and files outside the table's recorded location (which a location
        // mapping cannot reach) belong to other layers; listed, not failed, here.
        not_planned.push_back(reason);
      }
      continue;
    }
    auto ch_rows = ScanWithClickHouse(dir, floe_rows.schema);
    if (!ch_rows) {
      skipped.push_back("ClickHouse: " + relative + ": " +
                        ch_rows.error().message().substr(0, 160));
      continue;
    }
    if (*ch_rows == floe_rows.rows) {
      ++matched;
      continue;
    }
    const auto& unfilled = floe_rows.unfilled_by_clickhouse;
    if (!unfilled.empty() && ch_rows->size() == floe_rows.rows.size() &&
        Without(*ch_rows, *floe_rows.schema, unfilled) ==
            Without(floe_rows.rows, *floe_rows.schema, unfilled)) {
      partial.push_back(relative + " (all but " + fmt::format("{}", fmt::join(unfilled, ", ")) +
                        ")");
      continue;
    }
    std::vector<std::string> only_floe, only_ch;
    std::set_difference(floe_rows.rows.begin(), floe_rows.rows.end(), ch_rows->begin(),
                        ch_rows->end(), std::back_inserter(only_floe));
    std::set_difference(ch_rows->begin(), ch_rows->end(), floe_rows.rows.begin(),
                        floe_rows.rows.end(), std::back_inserter(only_ch));
    ADD_FAILURE() << relative << ": floe " << floe_rows.rows.size() << " rows, ClickHouse "
                  << ch_rows->size() << "; only floe: " << (only_floe.empty() ? "-" : only_floe[0])
                  << " (" << only_floe.size()
                  << "); only ClickHouse: " << (only_ch.empty() ? "-" : only_ch[0]) << " ("
                  << only_ch.size() << ")";
  }
  std::printf("%d of %zu tables match ClickHouse in every column\n", matched, tables.size());
  std::printf(
      "%zu match in every column ClickHouse fills (it leaves identity partition columns "
      "missing from data files and v3 initial defaults null):\n",
      partial.size());
  for (const auto& s : partial) std::printf("  %s\n", s.c_str());
  std::printf("%zu not read by floe (metadata, planning, files outside the mapped location):\n",
              not_planned.size());
  for (const auto& s : not_planned) std::printf("  %s\n", s.c_str());
  std::printf("skipped %zu:\n", skipped.size());
  for (const auto& s : skipped) std::printf("  %s\n", s.c_str());
}

}  // namespace
}  // namespace floe::table
