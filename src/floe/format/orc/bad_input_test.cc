// Truncated and corrupt ORC input: every damage gives one clear error naming the file (and where
// it can, the offset), never a crash or an allocation the file's size does not justify. The
// sanitizer build runs these too.

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "floe/format/compression/codec.h"
#include "floe/format/orc/batch_reader.h"
#include "floe/format/orc/stream_internal.h"
#include "floe/format/orc/time_zone_internal.h"
#include "floe/format/parquet/source.h"
#include "floe/testing/testing.h"

namespace floe::orc {
namespace {

namespace fs = std::filesystem;

// A small file of the shared test data: two columns, zlib-compressed, 3 rows.
fs::path SmallFile() {
  return testing::TestDataDir() /
         "impala/testdata/data/iceberg_test/hadoop_catalog/ice/iceberg_v2_no_deletes_orc/data/"
         "00000-0-data-boroknagyz_20220830153046_7c9aaa51-d601-4c5b-a51c-67c1e9e1fe29-job_"
         "16618645111570_0001-00001.orc";
}

std::vector<std::byte> ReadBytes(const fs::path& path) {
  const std::string text = testing::ReadFileOrDie(path);
  const auto* begin = reinterpret_cast<const std::byte*>(text.data());
  return {begin, begin + text.size()};
}

// Reads every row of bytes; the error, if any.
Status ReadAll(std::vector<std::byte> bytes) {
  FLOE_ASSIGN_OR_RETURN(
      auto file, OrcFileReader::Open(parquet::MakeMemorySource(std::move(bytes), "bad.orc")));
  FLOE_ASSIGN_OR_RETURN(auto reader, OrcBatchReader::Open(std::move(file)));
  FLOE_ASSIGN_OR_RETURN(auto batches, reader->ReadAll());
  return Ok();
}

void ExpectCleanError(const Status& status) {
  if (status) return;
  const Error& error = status.error();
  EXPECT_TRUE(error.kind() == ErrorKind::kCorruptData || error.kind() == ErrorKind::kUnsupported ||
              error.kind() == ErrorKind::kResourceExhausted)
      << error.ToString();
  EXPECT_NE(error.message().find("bad.orc"), std::string::npos) << error.ToString();
}

TEST(OrcBadInput, TheIntactFileReads) {
  const auto bytes = ReadBytes(SmallFile());
  ASSERT_FALSE(bytes.empty());
  auto status = ReadAll(bytes);
  EXPECT_TRUE(status) << status.error().ToString();
}

TEST(OrcBadInput, EveryTruncationIsRefused) {
  const auto bytes = ReadBytes(SmallFile());
  for (size_t length = 0; length < bytes.size(); ++length) {
    SCOPED_TRACE(length);
    auto status = ReadAll({bytes.begin(), bytes.begin() + static_cast<ptrdiff_t>(length)});
    ASSERT_FALSE(status);
    ExpectCleanError(status);
  }
}

TEST(OrcBadInput, ABadPostscriptLengthNamesItsOffset) {
  auto bytes = ReadBytes(SmallFile());
  for (int length : {0, 255}) {
    auto damaged = bytes;
    // 255 bytes of postscript do not fit in the file's first 200 bytes.
    if (length == 255) damaged.resize(200);
    damaged.back() = static_cast<std::byte>(length);
    auto status = ReadAll(damaged);
    ASSERT_FALSE(status);
    EXPECT_NE(status.error().message().find(
                  fmt::format("bad postscript length {} at offset {}", length, damaged.size() - 1)),
              std::string::npos)
        << status.error().message();
  }
}

TEST(OrcBadInput, EveryDamagedByteReadsOrFailsCleanly) {
  const auto bytes = ReadBytes(SmallFile());
  for (size_t i = 0; i < bytes.size(); ++i) {
    for (int value :
         {0x00, 0xff, static_cast<int>(bytes[i]) ^ 0x01, static_cast<int>(bytes[i]) ^ 0x80}) {
      auto damaged = bytes;
      damaged[i] = static_cast<std::byte>(value);
      SCOPED_TRACE(fmt::format("byte {} = {:#x}", i, value));
      ExpectCleanError(ReadAll(std::move(damaged)));
    }
  }
}

std::vector<std::byte> Chunk(std::span<const std::byte> compressed) {
  const uint32_t header = static_cast<uint32_t>(compressed.size()) << 1;
  std::vector<std::byte> out = {std::byte(header & 0xff), std::byte((header >> 8) & 0xff),
                                std::byte((header >> 16) & 0xff)};
  out.insert(out.end(), compressed.begin(), compressed.end());
  return out;
}

TEST(OrcBadInput, DecompressionIsBoundedByTheBlockSizeAndTheStreamLimit) {
  // 1 MiB of zeros deflates to about a kilobyte.
  const std::vector<std::byte> zeros(1 << 20);
  std::vector<std::byte> deflated;
  ASSERT_TRUE(compression::Compress(compression::Codec::kDeflate, zeros, deflated));
  const auto chunk = Chunk(deflated);
  // A chunk may not decompress to more than the block size.
  auto bomb = DecompressStream({CompressionKind::kZlib, 64 << 10}, chunk, size_t{1} << 30);
  ASSERT_FALSE(bomb);
  EXPECT_EQ(bomb.error().kind(), ErrorKind::kCorruptData);
  EXPECT_NE(bomb.error().message().find("more than the block size 65536"), std::string::npos)
      << bomb.error().message();
  // Chunks within the block size, but more of them than the stream's limit.
  std::vector<std::byte> many;
  for (int i = 0; i < 8; ++i) many.insert(many.end(), chunk.begin(), chunk.end());
  auto over = DecompressStream({CompressionKind::kZlib, 1 << 20}, many, 4 << 20);
  ASSERT_FALSE(over);
  EXPECT_EQ(over.error().kind(), ErrorKind::kResourceExhausted);
  auto fits = DecompressStream({CompressionKind::kZlib, 1 << 20}, many, 8 << 20);
  ASSERT_TRUE(fits) << fits.error().ToString();
  EXPECT_EQ(fits->bytes().size(), size_t{8} << 20);
  // A chunk header longer than what follows it.
  auto cut = DecompressStream({CompressionKind::kZlib, 1 << 20},
                              std::span(chunk).first(chunk.size() - 1), 1 << 20);
  ASSERT_FALSE(cut);
  EXPECT_NE(cut.error().message().find("runs past the stream"), std::string::npos);
}

TEST(OrcBadInput, AnUnknownWriterTimeZoneIsRefusedClearly) {
  EXPECT_TRUE(TimeZone::Load("UTC"));
  auto unknown = TimeZone::Load("Mars/Olympus_Mons");
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().kind(), ErrorKind::kUnsupported);
  EXPECT_FALSE(TimeZone::Load("../../etc/passwd"));
}

}  // namespace
}  // namespace floe::orc
