// Reads every Parquet file of the shared test data and compares its rows with what DuckDB (an
// independent reader, ../shared/peers) returns for SELECT * FROM read_parquet(FILE). Both sides
// print JSON lines; values are compared in a normalized text form:
// - numbers: integers up to 2^53 exactly, beyond it as doubles (the peer goes through JavaScript
//   numbers); other numbers at float precision (DuckDB prints float32 values widened to double,
//   floe prints the shortest float32 text); numeric strings (DuckDB's BIGINT/HUGEINT, floe's
//   decimals) count as numbers;
// - NaN and infinities: floe's "NaN"/"Infinity" strings and DuckDB's null (JSON has no NaN) match;
// - timestamps and dates: the zone suffix ("Z", "+00:00") and trailing fractional zeros are
//   dropped, fractions are cut to milliseconds (the peer's JavaScript dates hold no more), and a
//   midnight date-time equals its date (DuckDB prints DATE as a date-time);
// - binary: both sides print hex (UUIDs too, without dashes); nested objects compare by key,
//   regardless of order, rows by their values in column order; TIME WITH TIME ZONE as UTC times.
// The tests skip when the peer is not installed.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <regex>
#include <string>

#include "floe/batch/value.h"
#include "floe/format/parquet/reader/batch_reader.h"
#include "floe/testing/testing.h"
#include "floe/util/json.h"

namespace floe::parquet {
namespace {

namespace fs = std::filesystem;

fs::path DuckPath() { return testing::TestDataDir().parent_path() / "peers" / "duck"; }

// Integers from here on are compared as doubles.
constexpr int64_t kExactLimit = 1'000'000'000'000'000;

std::string NormalizeNumber(double v) {
  if (std::isnan(v) || std::isinf(v)) return "null";
  if (v == std::trunc(v) && std::fabs(v) < static_cast<double>(kExactLimit))
    return fmt::format("{}", static_cast<int64_t>(v));
  // DuckDB's peer prints FLOAT widened to double, floe the shortest float text: compare at float
  // precision.
  return fmt::format("{:.7g}", static_cast<float>(v));
}

std::string NormalizeString(const std::string& s) {
  if (s == "NaN" || s == "Infinity" || s == "-Infinity") return "null";
  static const std::regex kNumber(R"(-?\d+(\.\d+)?([eE][-+]?\d+)?)");
  if (std::regex_match(s, kNumber)) {
    if (s.find_first_of(".eE") == std::string::npos && s.size() < 16) return s;  // < kExactLimit
    return NormalizeNumber(std::strtod(s.c_str(), nullptr));
  }
  // Years beyond 9999 carry a sign; the peer pads them to six digits ("+052951"), floe does not.
  static const std::regex kDateTime(
      R"(([+-]?)0*(\d{4,}-\d\d-\d\d)[T ](\d\d:\d\d:\d\d)(\.\d*)?(Z|\+00:00)?)");
  std::smatch m;
  if (std::regex_match(s, m, kDateTime)) {
    // The peer prints timestamps through JavaScript dates: milliseconds only.
    std::string fraction = m[4].str().substr(0, 4);
    while (!fraction.empty() && (fraction.back() == '0' || fraction.back() == '.')) {
      fraction.pop_back();
    }
    const std::string date = m[1].str() + m[2].str();
    if (m[3].str() == "00:00:00" && fraction.empty()) return "\"" + date + "\"";
    return "\"" + date + "T" + m[3].str() + fraction + "\"";
  }
  static const std::regex kTime(R"((\d\d:\d\d:\d\d)(\.\d*)?)");
  if (std::regex_match(s, m, kTime)) {
    std::string fraction = m[2].str();
    while (!fraction.empty() && (fraction.back() == '0' || fraction.back() == '.')) {
      fraction.pop_back();
    }
    return "\"" + m[1].str() + fraction + "\"";
  }
  // floe prints FIXED_LEN_BYTE_ARRAY(16) UUIDs as hex like other binaries, DuckDB canonically.
  static const std::regex kUuid(R"([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})");
  if (std::regex_match(s, kUuid)) {
    std::string hex = s;
    std::erase(hex, '-');
    return "\"" + hex + "\"";
  }
  return "\"" + s + "\"";
}

std::string Normalize(const Json& j) {
  switch (j.kind()) {
    case Json::Kind::kNull:
      return "null";
    case Json::Kind::kBool:
      return j.as_bool() ? "true" : "false";
    case Json::Kind::kInt:
      // DuckDB's peer prints integers beyond 2^53 as JavaScript numbers.
      if (j.as_int() >= kExactLimit || j.as_int() <= -kExactLimit) {
        return NormalizeNumber(static_cast<double>(j.as_int()));
      }
      return std::to_string(j.as_int());
    case Json::Kind::kDouble:
      return NormalizeNumber(j.as_double());
    case Json::Kind::kString:
      return NormalizeString(j.as_string());
    case Json::Kind::kArray: {
      std::string out = "[";
      for (const Json& e : j.as_array()) out += Normalize(e) + ",";
      return out + "]";
    }
    case Json::Kind::kObject: {
      // DuckDB's TIME WITH TIME ZONE: microseconds of the day and an offset in seconds.
      const Json* micros = j.Find("micros");
      const Json* offset = j.Find("offset");
      auto integer = [](const Json& v) -> int64_t {
        return v.kind() == Json::Kind::kString ? std::strtoll(v.as_string().c_str(), nullptr, 10)
                                               : static_cast<int64_t>(v.as_double());
      };
      if (j.as_object().size() == 2 && micros && offset) {
        const int64_t utc = integer(*micros) - integer(*offset) * 1000000;
        return NormalizeString(fmt::format("{:02}:{:02}:{:02}.{:06}", utc / 3600000000,
                                           utc / 60000000 % 60, utc / 1000000 % 60, utc % 1000000));
      }
      std::vector<std::string> members;
      for (const auto& [k, v] : j.as_object()) members.push_back(k + ":" + Normalize(v));
      std::sort(members.begin(), members.end());
      std::string out = "{";
      for (const std::string& m : members) out += m + ",";
      return out + "}";
    }
  }
  return "?";
}

std::vector<std::string> NormalizeLines(const std::string& text) {
  std::vector<std::string> rows;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string_view line(text.data() + start, end - start);
    if (!line.empty()) {
      auto json = Json::Parse(line);
      if (!json) {
        rows.push_back("unparsable: " + std::string(line));
      } else if (json->kind() == Json::Kind::kObject) {
        // A row as its values in column order: DuckDB renames columns whose names differ only in
        // case ("a", "A" -> "A_1").
        std::string row = "(";
        for (const auto& [name, value] : json->as_object()) row += Normalize(value) + ",";
        rows.push_back(row + ")");
      } else {
        rows.push_back(Normalize(*json));
      }
    }
    start = end + 1;
  }
  return rows;
}

bool IsEncrypted(const fs::path& p) {
  const std::string name = p.filename().string();
  return name.find("encrypt") != std::string::npos || name.starts_with("uniform_encryption") ||
         name.find("_cipher") != std::string::npos;
}

bool IsCorruptByName(const fs::path& p) {
  const std::string name = p.filename().string();
  return name.find("corrupt") != std::string::npos || name.find("malformed") != std::string::npos;
}

struct DuckRun {
  bool ok = false;
  std::string out;
  std::string reason;  // the first line DuckDB printed on stderr when it failed
};

DuckRun RunDuckFile(const fs::path& file) {
  testing::CommandRun run = testing::RunCommand(
      testing::ShellQuote(DuckPath().string()) + " " +
      testing::ShellQuote("SELECT * FROM read_parquet(" + testing::ShellQuote(file.string()) +
                          ", hive_partitioning = false)"));
  DuckRun result{run.exit_code == 0, std::move(run.out), run.err.substr(0, run.err.find('\n'))};
  return result;
}

bool DuckRuns() {
  if (!fs::exists(DuckPath())) return false;
  return RunDuckFile(testing::TestDataDir() / "parquet-testing/data/alltypes_plain.parquet").ok;
}

struct CompareTally {
  int compared = 0;
  std::vector<std::string> duck_failed;   // "file: reason"
  std::vector<std::string> floe_refused;  // deliberately broken files floe rejects and DuckDB reads
};

// Impala's deliberately broken files (bad_*): floe may refuse them with a clear error where DuckDB
// reads what it can.
bool IsBadByName(const fs::path& p) {
  const std::string name = p.filename().string();
  // num_values_def_levels_mismatch: a page of 2 values whose definition levels hold 1.
  return name.starts_with("bad_") || name == "num_values_def_levels_mismatch.parquet";
}

// Files whose values DuckDB gets wrong, with the reason.
const char* KnownDuckDbDivergence(const fs::path& p) {
  const std::string name = p.filename().string();
  // Their INT96 values lie beyond 1677..2262: DuckDB converts through int64 nanoseconds and wraps
  // around (to years 63427 and -226413).
  if (name == "int96_from_spark.parquet" || name == "dateless_timestamps.parq") {
    return "INT96 beyond DuckDB's nanosecond range";
  }
  // Impala's invalid INT96 times of day (-1 ns, a whole day): DuckDB truncates -1 ns to 0 us, floe
  // floors it to -1 us, as it does every timestamp conversion.
  if (name == "out_of_range_time_of_day.parquet") return "INT96 time of day out of range";
  return nullptr;
}

// Reads file with floe and compares its rows with DuckDB's (already run), recording failures in
// the current test.
void CompareFile(const fs::path& file, const DuckRun& duck, const fs::path& root,
                 CompareTally& tally) {
  const std::string name = fs::relative(file, root).string();
  SCOPED_TRACE(name);
  auto reader = ParquetBatchReader::OpenPath(file.string());
  std::string floe_text;
  Status status;
  if (reader) {
    auto batches = (*reader)->ReadAll();
    if (batches) {
      for (const RecordBatch& batch : *batches) AppendJsonLines(batch, floe_text);
    } else {
      status = std::unexpected(batches.error());
    }
  } else {
    status = std::unexpected(reader.error());
  }
  if (IsCorruptByName(file)) {
    // DuckDB does not verify page checksums or dictionary page sizes; floe must reject these.
    EXPECT_FALSE(status) << "floe read a corrupt file";
    return;
  }
  if (!duck.ok) {
    // DuckDB rejects it too (corrupt or unsupported): floe must fail cleanly or read it.
    tally.duck_failed.push_back(name + ": " + duck.reason);
    return;
  }
  if (!status && IsBadByName(file)) {
    tally.floe_refused.push_back(name + ": " + status.error().message());
    return;
  }
  if (!status) {
    ADD_FAILURE() << status.error().ToString();
    return;
  }
  std::vector<std::string> expected = NormalizeLines(duck.out);
  std::vector<std::string> actual = NormalizeLines(floe_text);
  EXPECT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < std::min(actual.size(), expected.size()); ++i) {
    if (actual[i] != expected[i]) {
      size_t at = 0;
      while (at < actual[i].size() && actual[i][at] == expected[i][at]) ++at;
      at = at > 100 ? at - 100 : 0;
      ADD_FAILURE() << "row " << i << "\n floe: " << actual[i].substr(at, 300)
                    << "\n duck: " << expected[i].substr(at, 300);
      break;
    }
  }
  ++tally.compared;
}

// Runs DuckDB on a few files at once (each run is a separate process), then compares in order.
void CompareFiles(const std::vector<fs::path>& files, const fs::path& root, CompareTally& tally) {
  constexpr size_t kParallel = 3;
  for (size_t begin = 0; begin < files.size(); begin += kParallel) {
    const size_t end = std::min(files.size(), begin + kParallel);
    std::vector<std::future<DuckRun>> runs;
    for (size_t i = begin; i < end; ++i) {
      runs.push_back(std::async(std::launch::async, RunDuckFile, files[i]));
    }
    for (size_t i = begin; i < end; ++i) CompareFile(files[i], runs[i - begin].get(), root, tally);
  }
}

TEST(PeerCompare, ParquetTestingFilesReadLikeDuckDb) {
  if (!DuckRuns()) GTEST_SKIP() << "DuckDB peer not installed (run ../shared/peers/setup)";
  const fs::path root = testing::TestDataDir() / "parquet-testing/data";
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(root)) {
    if (KnownDuckDbDivergence(entry.path())) continue;
    if (entry.path().extension() == ".parquet" && !IsEncrypted(entry.path())) {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  CompareTally tally;
  CompareFiles(files, root, tally);
  EXPECT_GT(tally.compared, 50) << "files compared (" << tally.duck_failed.size()
                                << " unreadable by DuckDB too)";
}

// Whether the file starts and ends with the Parquet magic: Impala and Iceberg data files do not
// all end in .parquet.
bool IsParquetFile(const fs::path& path) {
  std::error_code error;
  const auto size = fs::file_size(path, error);
  if (error || size < 12) return false;
  std::ifstream in(path, std::ios::binary);
  char head[4], tail[4];
  in.read(head, 4);
  in.seekg(static_cast<std::streamoff>(size - 4));
  in.read(tail, 4);
  return in && std::string_view(head, 4) == "PAR1" && std::string_view(tail, 4) == "PAR1";
}

// The Parquet files of the Iceberg tables and the Impala test data (every folder of the shared
// corpus that holds Parquet besides parquet-testing), against DuckDB.
class CorpusCompare : public ::testing::TestWithParam<std::string> {};

TEST_P(CorpusCompare, ParquetFilesReadLikeDuckDb) {
  if (!DuckRuns()) GTEST_SKIP() << "DuckDB peer not installed (run ../shared/peers/setup)";
  const fs::path root = testing::TestDataDir() / GetParam();
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (entry.is_regular_file() && IsParquetFile(entry.path()) &&
        !KnownDuckDbDivergence(entry.path())) {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  ASSERT_FALSE(files.empty());
  CompareTally tally;
  CompareFiles(files, root, tally);
  std::string unreadable, refused;
  for (const std::string& line : tally.duck_failed) unreadable += "\n  " + line;
  for (const std::string& line : tally.floe_refused) refused += "\n  " + line;
  std::printf(
      "%s: %d files compared; unreadable by DuckDB: %zu%s\nbroken files floe refuses: %zu%s\n",
      GetParam().c_str(), tally.compared, tally.duck_failed.size(), unreadable.c_str(),
      tally.floe_refused.size(), refused.c_str());
  EXPECT_GT(tally.compared, 0);
}

INSTANTIATE_TEST_SUITE_P(Corpora, CorpusCompare,
                         ::testing::Values("duckdb-iceberg", "impala", "iceberg-java", "polars"),
                         [](const auto& info) {
                           std::string name = info.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

}  // namespace
}  // namespace floe::parquet
