// Cross-checks against an independent Avro implementation (avsc, through ../shared/peers/avro-cat):
// files floe writes must decode there to the same records, and files other engines wrote must
// decode here to what avsc sees. Skipped when the peers are not installed.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "floe/format/avro/container.h"
#include "floe/format/avro/datum_json.h"
#include "floe/testing/testing.h"

namespace floe::avro {
namespace {

namespace fs = std::filesystem;

fs::path PeersHome() {
  if (const char* env = std::getenv("FLOE_PEERS_HOME"); env != nullptr && *env != '\0') return env;
  const char* home = std::getenv("HOME");
  return fs::path(home != nullptr ? home : "/root") / ".cache" / "floe-peers";
}

bool PeerInstalled() { return fs::exists(PeersHome() / "node_modules" / "avsc"); }

// Runs avro-cat on a file and returns its JSON lines.
Result<std::vector<Json>> AvroCat(const fs::path& file) {
  std::string command =
      fmt::format("'{}' '{}' 2>&1", (floe::testing::SharedDir() / "peers" / "avro-cat").string(),
                  file.string());
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return IOError("cannot run avro-cat");
  std::string output;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof(buffer), pipe)) > 0) output.append(buffer, n);
  int status = pclose(pipe);
  if (status != 0) return IOError("avro-cat failed on {}: {}", file.string(), output);
  std::vector<Json> lines;
  std::istringstream in(output);
  std::string line;
  while (std::getline(in, line)) {
    FLOE_ASSIGN_OR_RETURN(Json json, Json::Parse(line));
    lines.push_back(std::move(json));
  }
  return lines;
}

// A Datum the way avro-cat prints it: longs as strings, bytes as hex, maps as objects, unions
// unwrapped, enums as symbols, logical types ignored.
Json PeerStyle(const Node& node, const Datum& datum) {
  if (const auto* u = std::get_if<Union>(&datum.value()))
    return PeerStyle(*node.branches[u->branch], *u->value);
  switch (node.type) {
    case Type::kLong:
      return Json(std::to_string(datum.as<int64_t>()));
    case Type::kInt:
      return Json(int64_t{datum.as<int32_t>()});
    case Type::kFloat:
      return Json(static_cast<double>(datum.as<float>()));
    case Type::kDouble:
      return Json(datum.as<double>());
    case Type::kBytes:
    case Type::kFixed:
      return Json(FormatHex(datum.as<Bytes>().value));
    case Type::kString:
      return Json(datum.as<std::string>());
    case Type::kBoolean:
      return Json(datum.as<bool>());
    case Type::kEnum:
      return Json(node.symbols[static_cast<size_t>(datum.as<EnumValue>().index)]);
    case Type::kArray: {
      Json out = Json::MakeArray();
      for (const Datum& item : datum.as<Array>().items) out.Push(PeerStyle(*node.items, item));
      return out;
    }
    case Type::kMap: {
      Json out = Json::MakeObject();
      for (const auto& [k, v] : datum.as<Map>().entries) out.Set(k, PeerStyle(*node.values, v));
      return out;
    }
    case Type::kRecord: {
      Json out = Json::MakeObject();
      for (size_t i = 0; i < node.fields.size(); ++i) {
        out.Set(node.fields[i].name, PeerStyle(*node.fields[i].type, datum.as<Record>().fields[i]));
      }
      return out;
    }
    default:
      return Json();
  }
}

class PeerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!PeerInstalled()) GTEST_SKIP() << "avsc peer not installed (run ../shared/peers/setup)";
  }
};

TEST_F(PeerTest, WhatFloeWritesAvscReadsTheSame) {
  const char* schema_json =
      R"({"type":"record","name":"manifest_entry","namespace":"iceberg","fields":[
      {"name":"status","type":"int","field-id":0},
      {"name":"snapshot_id","type":["null","long"],"default":null,"field-id":1},
      {"name":"kind","type":{"type":"enum","name":"Kind","symbols":["DATA","DELETES"]}},
      {"name":"data_file","type":{"type":"record","name":"r2","fields":[
        {"name":"file_path","type":"string","field-id":100},
        {"name":"record_count","type":"long","field-id":103},
        {"name":"ratio","type":"double"},{"name":"f","type":"float"},
        {"name":"key","type":{"type":"fixed","name":"k16","size":16}},
        {"name":"column_sizes","type":["null",{"type":"array","items":{"type":"record","name":"k117_v118",
          "fields":[{"name":"key","type":"int","field-id":117},{"name":"value","type":"long","field-id":118}]},
          "logicalType":"map"}],"default":null,"field-id":108},
        {"name":"props","type":{"type":"map","values":"bytes"}},
        {"name":"flag","type":"boolean"}]},"field-id":2}]})";
  FLOE_ASSERT_OK_AND_ASSIGN(auto schema, Schema::Parse(schema_json));
  std::vector<Datum> records;
  for (int64_t i = 0; i < 300; ++i) {
    Array sizes;
    for (int32_t c = 0; c < i % 5; ++c)
      sizes.items.push_back(Datum(Record{{Datum(c), Datum(int64_t{c} << 40)}}));
    Map props;
    if (i % 2) props.entries.emplace_back("k", Datum(Bytes{std::string("\x00\x01\xfe", 3)}));
    Datum file(Record{{Datum(fmt::format("s3://bucket/data/{}.parquet", i)), Datum(INT64_MAX - i),
                       Datum(i / 7.0), Datum(static_cast<float>(i) / 4),
                       Datum(Bytes{std::string(16, static_cast<char>(i))}),
                       i % 3 ? Datum(Union(1, Datum(sizes))) : Datum(Union(0, Datum())),
                       Datum(props), Datum(i % 2 == 0)}});
    records.push_back(Datum(Record{{Datum(static_cast<int32_t>(i % 3)),
                                    Datum(Union(1, Datum(int64_t{-8570200863586094826} + i))),
                                    Datum(EnumValue{static_cast<int32_t>(i % 2)}), file}}));
  }
  floe::testing::TempDir dir;
  for (AvroCodec codec : {AvroCodec::kNull, AvroCodec::kDeflate}) {
    fs::path path = dir.path() / fmt::format("out-{}.avro", AvroCodecName(codec));
    std::ofstream out(path, std::ios::binary);
    ContainerWriteOptions options;
    options.codec = codec;
    options.block_size = 4096;
    FLOE_ASSERT_OK_AND_ASSIGN(auto writer, ContainerWriter::Open(
                                               schema,
                                               [&](std::span<const std::byte> b) {
                                                 out.write(reinterpret_cast<const char*>(b.data()),
                                                           static_cast<std::streamsize>(b.size()));
                                                 return Ok();
                                               },
                                               options));
    for (const Datum& r : records) FLOE_ASSERT_OK(writer->Append(r));
    FLOE_ASSERT_OK(writer->Close());
    out.close();
    FLOE_ASSERT_OK_AND_ASSIGN(std::vector<Json> lines, AvroCat(path));
    ASSERT_EQ(lines.size(), records.size());
    for (size_t i = 0; i < records.size(); ++i) {
      EXPECT_EQ(lines[i], PeerStyle(schema->root(), records[i])) << i << ": " << lines[i].Dump();
    }
  }
}

TEST_F(PeerTest, IcebergMetadataReadsAsAvscReadsIt) {
  // A sample across writers (Spark/Java, PyIceberg, DuckDB, Impala, Rust, Go): every fortieth file.
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(floe::testing::TestDataDir())) {
    std::string p = entry.path().string();
    if (entry.is_regular_file() && entry.path().extension() == ".avro" &&
        p.find("/testdata/avro/") == std::string::npos &&
        p.find("encrypted") == std::string::npos) {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  int compared = 0;
  for (size_t i = 0; i < files.size(); i += 40) {
    std::string bytes = floe::testing::ReadFileOrDie(files[i]);
    FLOE_ASSERT_OK_AND_ASSIGN(
        auto reader, ContainerReader::Open(std::as_bytes(std::span(bytes)), files[i].string()));
    if (reader->codec() != AvroCodec::kNull && reader->codec() != AvroCodec::kDeflate) continue;
    FLOE_ASSERT_OK_AND_ASSIGN(std::vector<Json> lines, AvroCat(files[i]));
    Datum d;
    size_t n = 0;
    while (true) {
      FLOE_ASSERT_OK_AND_ASSIGN(bool more, reader->Next(d));
      if (!more) break;
      ASSERT_LT(n, lines.size()) << files[i];
      EXPECT_EQ(PeerStyle(reader->writer_schema()->root(), d), lines[n])
          << files[i] << " record " << n;
      ++n;
    }
    EXPECT_EQ(n, lines.size()) << files[i];
    ++compared;
  }
  EXPECT_GE(compared, 5);
}

}  // namespace
}  // namespace floe::avro
