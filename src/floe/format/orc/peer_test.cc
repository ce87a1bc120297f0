// ORC files read by floe against ClickHouse (../shared/peers `ch`, an independent ORC reader)
// reading the same files: the Impala tables' ORC data files of the shared test data, and files
// ClickHouse writes itself with every type and codec it offers. Both sides print JSON lines,
// compared after a normalization of what the two print differently:
// - numbers by value (floe's shortest float text and ClickHouse's parse to the same double);
//   decimals as text with their scale's digits on both sides; booleans as 1 and 0 (ClickHouse reads
//   back the booleans it writes as Int8);
// - timestamps without the "T"/" " difference, the zone suffix and trailing fractional zeros;
// - NaN and infinities by name;
// - maps by key (floe prints a map as [{"key":..,"value":..}], ClickHouse as an object); empty
//   lists, and maps and structs of nothing but nulls, equal null (ClickHouse's arrays, maps and
//   tuples are never null, and its JSON prints maps and tuples alike).
// The tests skip when ClickHouse is not installed.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "floe/batch/value.h"
#include "floe/format/orc/batch_reader.h"
#include "floe/testing/peers.h"
#include "floe/testing/testing.h"
#include "floe/util/json.h"

namespace floe::orc {
namespace {

namespace fs = std::filesystem;

// ClickHouse's output in the forms the normalization expects.
constexpr const char* kChSettings =
    " SETTINGS use_hive_partitioning = 0, input_format_orc_dictionary_as_low_cardinality = 0,"
    " output_format_json_quote_64bit_integers = 0, output_format_json_quote_decimals = 1,"
    " output_format_decimal_trailing_zeros = 1, output_format_json_quote_denormals = 1,"
    " date_time_output_format = 'iso', session_timezone = 'UTC'";

std::string Norm(const Json& j);

std::string NormNumber(double v) { return fmt::format("{}", v); }

std::string NormString(const std::string& s) {
  if (s == "NaN" || s == "nan") return "nan";
  if (s == "Infinity" || s == "inf" || s == "+inf") return "inf";
  if (s == "-Infinity" || s == "-inf") return "-inf";
  static const std::regex kDateTime(R"((\d{4}-\d\d-\d\d)[T ](\d\d:\d\d:\d\d)(\.\d*)?(Z|\+00:00)?)");
  std::smatch m;
  if (std::regex_match(s, m, kDateTime)) {
    std::string fraction = m[3].str();
    while (!fraction.empty() && (fraction.back() == '0' || fraction.back() == '.'))
      fraction.pop_back();
    return m[1].str() + " " + m[2].str() + fraction;
  }
  return "\"" + s + "\"";
}

// A map key as text: ClickHouse's object keys are strings whatever the key type.
std::string KeyText(const Json& key) {
  if (key.is_string()) return key.as_string();
  if (key.is_bool()) return key.as_bool() ? "true" : "false";
  return Norm(key);
}

bool IsEntry(const Json& j) {
  return j.kind() == Json::Kind::kObject && j.as_object().size() == 2 && j.Find("key") &&
         j.Find("value");
}

std::string Sorted(std::vector<std::string> members) {
  std::sort(members.begin(), members.end());
  std::string out = "{";
  for (const std::string& m : members) out += m + ",";
  return out + "}";
}

std::string Norm(const Json& j) {
  switch (j.kind()) {
    case Json::Kind::kNull:
      return "null";
    case Json::Kind::kBool:
      return j.as_bool() ? "1" : "0";
    case Json::Kind::kInt:
      return std::to_string(j.as_int());
    case Json::Kind::kDouble:
      return NormNumber(j.as_double());
    case Json::Kind::kString:
      return NormString(j.as_string());
    case Json::Kind::kArray: {
      const auto& items = j.as_array();
      if (items.empty()) return "null";
      if (std::all_of(items.begin(), items.end(), IsEntry)) {
        std::vector<std::string> members;
        bool all_null = true;
        for (const Json& e : items) {
          std::string value = Norm(*e.Find("value"));
          all_null = all_null && value == "null";
          members.push_back(KeyText(*e.Find("key")) + ":" + value);
        }
        // As for objects below: ClickHouse's maps and tuples print alike.
        return all_null ? "null" : Sorted(std::move(members));
      }
      std::string out = "[";
      for (const Json& e : items) out += Norm(e) + ",";
      return out + "]";
    }
    case Json::Kind::kObject: {
      std::vector<std::string> members;
      bool all_null = true;
      for (const auto& [k, v] : j.as_object()) {
        std::string value = Norm(v);
        all_null = all_null && value == "null";
        members.push_back(k + ":" + value);
      }
      if (all_null) return "null";
      return Sorted(std::move(members));
    }
  }
  return "?";
}

std::vector<std::string> NormLines(const std::string& text) {
  std::vector<std::string> rows;
  auto lines = testing::ParseJsonLines(text);
  if (!lines) return {"unparsable: " + lines.error().message()};
  for (const Json& line : *lines) rows.push_back(Norm(line));
  return rows;
}

// ClickHouse's rows of `select` (a query's column list) over the file.
Result<std::vector<std::string>> ClickHouseRows(const fs::path& file,
                                                const std::string& select = "*") {
  FLOE_ASSIGN_OR_RETURN(
      std::string out, testing::RunPeer("ch", {"SELECT " + select + " FROM file('" + file.string() +
                                               "', 'ORC')" + kChSettings}));
  return NormLines(out);
}

Result<std::vector<std::string>> FloeRows(const fs::path& file) {
  ReadOptions options;
  options.batch_rows = 1000;  // several batches per stripe
  options.file.timestamp_unit = TimeUnit::kNano;
  FLOE_ASSIGN_OR_RETURN(auto reader, OrcBatchReader::OpenPath(file.string(), options));
  FLOE_ASSIGN_OR_RETURN(auto batches, reader->ReadAll());
  std::string text;
  for (const RecordBatch& batch : batches) AppendJsonLines(batch, text);
  return NormLines(text);
}

void ExpectSameRows(const fs::path& file, const std::string& select = "*") {
  SCOPED_TRACE(file.string());
  auto ch = ClickHouseRows(file, select);
  ASSERT_TRUE(ch) << ch.error().ToString();
  auto floe = FloeRows(file);
  ASSERT_TRUE(floe) << floe.error().ToString();
  ASSERT_EQ(floe->size(), ch->size());
  for (size_t i = 0; i < ch->size(); ++i) {
    ASSERT_EQ((*floe)[i], (*ch)[i]) << "row " << i;
  }
}

// The ORC data files of the shared test data, as its MANIFEST.txt lists them.
std::vector<fs::path> CorpusOrcFiles() {
  std::ifstream manifest(testing::TestDataDir() / "MANIFEST.txt");
  std::vector<fs::path> files;
  std::string line;
  while (std::getline(manifest, line)) {
    if (line.find("| ORC data file") == std::string::npos) continue;
    files.push_back(testing::TestDataDir() / line.substr(0, line.find(' ')));
  }
  return files;
}

TEST(OrcPeers, CorpusFilesReadAsClickHouseReadsThem) {
  if (!testing::PeerInstalled("chdb"))
    GTEST_SKIP() << "ClickHouse peer not installed (run peers/setup)";
  const auto files = CorpusOrcFiles();
  ASSERT_GE(files.size(), 45u) << "the shared test data lists its ORC files in MANIFEST.txt";
  for (const fs::path& file : files) ExpectSameRows(file);
}

// What ClickHouse writes: every type it writes to ORC, with nulls, and integer runs of each kind
// RLE v2 has (repeats, sequences, random values, mostly small values with rare large ones).
constexpr const char* kWrittenColumns =
    "number % 3 = 0 AS b, toInt8(number % 256 - 128) AS i8, toInt16(number * 7 - 30000) AS i16,"
    " if(number % 5 = 0, NULL, toInt32(intDiv(number, 7))) AS i32,"
    " toInt64(number * 1000003 % 999983 - 500000) AS i64,"
    " toInt64(if(number % 97 = 0, 1000000000000 + number, number % 13)) AS patched,"
    " toUInt8(number % 200) AS u8, toUInt32(number * 2654435761 % 4294967296) AS u32,"
    " toFloat32(number) / 8 AS f32, if(number % 11 = 0, NULL, number / 3) AS f64,"
    " if(number = 7, nan, if(number = 8, inf, number * 1.5)) AS special,"
    " toString(number * 31 % 1000) AS s, if(number % 4 = 0, NULL, concat('v', toString(number % "
    "7))) AS dict_s,"
    " toFixedString(toString(number % 10), 1) AS fs,"
    " toDecimal32(number / 100, 2) AS d32, toDecimal64(number * 1.001 - 500, 6) AS d64,"
    " toDecimal128(number * 12345.6789 - 1e6, 20) AS d128,"
    " toDate('2020-01-01') + number % 10000 AS dt, toDate32('1900-01-01') + number % 5000 * 13 AS "
    "dt32,"
    " toDateTime64('2020-06-01 00:00:00', 3, 'UTC') + toIntervalMillisecond(number * 1234567) AS "
    "ts3,"
    " toDateTime64('1969-12-31 23:00:00', 6, 'UTC') + toIntervalMicrosecond(number * 987654321) AS "
    "ts6,"
    " toDateTime64('2262-04-11 23:00:00', 9, 'UTC') - toIntervalNanosecond(number * 123456789) AS "
    "ts9,"
    " toDateTime(1700000000 + number, 'UTC') AS dtime,"
    " range(number % 4) AS arr, [range(number % 3), []] AS arr2,"
    " map(toString(number % 3), number, 'k', NULL) AS m,"
    " tuple(number, toString(number), [number]) AS t, CAST(tuple(number % 2, 'x') AS Tuple(a "
    "UInt8, b String)) AS named";

fs::path WriteWithClickHouse(const fs::path& dir, const std::string& name,
                             const std::string& settings, int64_t rows) {
  const fs::path path = dir / name;
  auto status = testing::RunPeer(
      "ch", {"INSERT INTO FUNCTION file('" + path.string() + "', 'ORC') SELECT " + kWrittenColumns +
             " FROM numbers(" + std::to_string(rows) + ") SETTINGS " + settings});
  EXPECT_TRUE(status) << status.error().ToString();
  return path;
}

TEST(OrcPeers, ClickHouseFilesOfEveryCodecReadEqual) {
  if (!testing::PeerInstalled("chdb"))
    GTEST_SKIP() << "ClickHouse peer not installed (run peers/setup)";
  testing::TempDir dir;
  for (const char* codec : {"none", "lz4", "snappy", "zlib", "zstd"}) {
    SCOPED_TRACE(codec);
    // ClickHouse's smallest block size splits the streams into several compression chunks.
    const fs::path path =
        WriteWithClickHouse(dir.path(), std::string(codec) + ".orc",
                            fmt::format("output_format_orc_compression_method = '{}', "
                                        "output_format_orc_compression_block_size = 65536, "
                                        "output_format_orc_row_index_stride = 1000",
                                        codec),
                            20000);
    ExpectSameRows(path);
  }
}

// A TIMESTAMP is the writer's wall clock, counted from 2015-01-01 in its zone: stripes written in
// zones with daylight saving time (and one with a half-hour offset), over 1960..2030.
TEST(OrcPeers, TimestampsOfEveryWriterTimeZoneReadEqual) {
  if (!testing::PeerInstalled("chdb"))
    GTEST_SKIP() << "ClickHouse peer not installed (run peers/setup)";
  testing::TempDir dir;
  for (const char* zone : {"America/New_York", "Europe/Budapest", "Asia/Kolkata", "UTC"}) {
    SCOPED_TRACE(zone);
    const fs::path path = dir.path() / "zone.orc";
    fs::remove(path);
    auto written = testing::RunPeer(
        "ch", {"INSERT INTO FUNCTION file('" + path.string() +
               "', 'ORC') SELECT toDateTime64('1960-01-01 00:00:00', 6, 'UTC') + "
               "toIntervalSecond(number * 86413 * 7 + number % 1000) AS ts FROM numbers(3600) "
               "SETTINGS output_format_orc_writer_time_zone_name = '" +
               std::string(zone) + "'"});
    ASSERT_TRUE(written) << written.error().ToString();
    ExpectSameRows(path);
  }
}

TEST(OrcPeers, ClickHouseDictionaryAndBinaryColumnsReadEqual) {
  if (!testing::PeerInstalled("chdb"))
    GTEST_SKIP() << "ClickHouse peer not installed (run peers/setup)";
  testing::TempDir dir;
  // Dictionary encoding for every string column whose distinct values are few enough.
  ExpectSameRows(WriteWithClickHouse(
      dir.path(), "dictionary.orc", "output_format_orc_dictionary_key_size_threshold = 0.5", 5000));
  // Strings as ORC binary: ClickHouse prints the bytes, floe hex.
  const fs::path binary =
      WriteWithClickHouse(dir.path(), "binary.orc", "output_format_orc_string_as_string = 0", 3000);
  SCOPED_TRACE("binary");
  auto ch = testing::RunPeer("ch", {"SELECT lower(hex(s)) AS s FROM file('" + binary.string() +
                                    "', 'ORC')" + kChSettings});
  ASSERT_TRUE(ch) << ch.error().ToString();
  ReadOptions options;
  options.select.push_back(Field{"s", nullptr, true, std::nullopt});
  FLOE_ASSERT_OK_AND_ASSIGN(auto reader, OrcBatchReader::OpenPath(binary.string(), options));
  ASSERT_EQ(reader->schema()->field(0).type->kind(), floe::TypeKind::kBinary);
  FLOE_ASSERT_OK_AND_ASSIGN(auto batches, reader->ReadAll());
  std::string text;
  for (const RecordBatch& batch : batches) AppendJsonLines(batch, text);
  EXPECT_EQ(NormLines(text), NormLines(*ch));
}

}  // namespace
}  // namespace floe::orc
