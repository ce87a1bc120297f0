// Deletion vectors as DeletionVectorWriter writes them, checked byte for byte against the Puffin
// and deletion-vector-v1 layouts (puffin-spec.md), with zlib's CRC-32, CRoaring's decoder (an
// independent implementation of the portable format, Debian's libroaring-dev) and floe's reader.

#include "floe/table/write/deletion_vector_writer.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <set>

#include "floe/io/local_file_io.h"
#include "floe/table/scan/puffin_reader.h"
#include "floe/table/write/output_file_factory.h"
#include "floe/testing/testing.h"
#include "floe/util/json.h"

#ifdef FLOE_HAVE_CROARING
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wall"
#pragma GCC diagnostic ignored "-Wextra"
#include <roaring/roaring64map.hh>
#pragma GCC diagnostic pop
#endif

namespace floe::table {
namespace {

uint32_t BigEndian32(const std::string& bytes, size_t at) {
  uint32_t v = 0;
  for (size_t i = 0; i < 4; ++i) v = (v << 8) | static_cast<uint8_t>(bytes[at + i]);
  return v;
}

uint32_t LittleEndian32(const std::string& bytes, size_t at) {
  uint32_t v = 0;
  for (size_t i = 4; i-- > 0;) v = (v << 8) | static_cast<uint8_t>(bytes[at + i]);
  return v;
}

class DeletionVectorWriterTest : public ::testing::Test {
 protected:
  std::vector<manifest::DataFile> WriteVectors(
      const std::map<std::string, std::set<int64_t>>& deletes) {
    RollingFileWriterOptions options;
    options.io = &io_;
    options.files = &files_;
    DeletionVectorWriter writer(options);
    // Handed over out of order and with repeats: the writer sorts and keeps each position once.
    for (int round = 0; round < 2; ++round) {
      for (const auto& [path, positions] : deletes) {
        for (auto it = positions.rbegin(); it != positions.rend(); ++it) writer.Delete(path, *it);
      }
    }
    auto written = writer.Close();
    EXPECT_TRUE(written.has_value()) << written.error().ToString();
    return written ? *written : std::vector<manifest::DataFile>{};
  }

  static std::string ReadAll(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }

  floe::testing::TempDir dir_;
  io::LocalFileIO io_;
  OutputFileFactory files_{LocationProvider(dir_.path().string(), {}),
                           OutputFileFactoryOptions{.operation_id = "op", .suffix = "deletes"}};
};

TEST_F(DeletionVectorWriterTest, BlobsFollowThePuffinAndDeletionVectorLayouts) {
  std::set<int64_t> many;  // > 4,096 in one container: a bitmap container
  for (int64_t p = 100000; p < 105000; ++p) many.insert(p);
  many.insert({0, 5, 70000, int64_t{1} << 33, (int64_t{1} << 33) + 65536});
  const std::map<std::string, std::set<int64_t>> deletes = {
      {dir_.path().string() + "/data/a.parquet", many},
      {dir_.path().string() + "/data/b.parquet", {3}}};
  std::vector<manifest::DataFile> vectors = WriteVectors(deletes);
  ASSERT_EQ(vectors.size(), 2u);

  const std::string path = vectors[0].file_path;
  EXPECT_TRUE(path.ends_with(".puffin")) << path;
  const std::string bytes = ReadAll(path);
  // File: magic, blobs, footer (magic, payload, payload size, flags, magic).
  ASSERT_GT(bytes.size(), 16u);
  EXPECT_EQ(bytes.substr(0, 4), "PFA1");
  EXPECT_EQ(bytes.substr(bytes.size() - 4), "PFA1");
  EXPECT_EQ(LittleEndian32(bytes, bytes.size() - 8), 0u);  // flags: footer not compressed
  const uint32_t payload_size = LittleEndian32(bytes, bytes.size() - 12);
  const size_t payload_at = bytes.size() - 12 - payload_size;
  EXPECT_EQ(bytes.substr(payload_at - 4, 4), "PFA1");
  FLOE_ASSERT_OK_AND_ASSIGN(Json footer, Json::Parse(bytes.substr(payload_at, payload_size)));
  FLOE_ASSERT_OK_AND_ASSIGN(const Json* blobs, footer.Get("blobs"));
  ASSERT_EQ(blobs->as_array().size(), 2u);

  size_t index = 0;
  for (const auto& [data_path, positions] : deletes) {
    const manifest::DataFile& dv = vectors[index];
    const Json& blob = blobs->as_array()[index++];
    SCOPED_TRACE(data_path);
    EXPECT_EQ(dv.content, manifest::FileContent::kPositionDeletes);
    EXPECT_EQ(dv.file_format, "puffin");
    EXPECT_EQ(dv.file_path, path);
    EXPECT_EQ(dv.file_size_in_bytes, static_cast<int64_t>(bytes.size()));
    EXPECT_EQ(dv.referenced_data_file, data_path);
    EXPECT_EQ(dv.record_count, static_cast<int64_t>(positions.size()));
    EXPECT_EQ(blob.GetString("type").value_or(""), "deletion-vector-v1");
    EXPECT_EQ(blob.GetInt("snapshot-id").value_or(0), -1);
    EXPECT_EQ(blob.GetInt("sequence-number").value_or(0), -1);
    EXPECT_EQ(blob.GetInt("offset").value_or(-1), dv.content_offset.value_or(-2));
    EXPECT_EQ(blob.GetInt("length").value_or(-1), dv.content_size_in_bytes.value_or(-2));
    EXPECT_EQ(blob.Find("compression-codec"), nullptr);
    FLOE_ASSERT_OK_AND_ASSIGN(const Json* properties, blob.Get("properties"));
    EXPECT_EQ(properties->GetString("referenced-data-file").value_or(""), data_path);
    EXPECT_EQ(properties->GetString("cardinality").value_or(""), std::to_string(positions.size()));

    // The blob: big-endian length of magic + vector, the magic, the vector, big-endian CRC-32.
    const size_t at = static_cast<size_t>(*dv.content_offset);
    const size_t length = static_cast<size_t>(*dv.content_size_in_bytes);
    ASSERT_LE(at + length, payload_at);
    const uint32_t body_length = BigEndian32(bytes, at);
    ASSERT_EQ(body_length + 8, length);
    const std::string body = bytes.substr(at + 4, body_length);
    EXPECT_EQ(body.substr(0, 4), "\xD1\xD3\x39\x64");
    const uLong crc =
        crc32(0L, reinterpret_cast<const Bytef*>(body.data()), static_cast<uInt>(body.size()));
    EXPECT_EQ(BigEndian32(bytes, at + 4 + body_length), static_cast<uint32_t>(crc));

    // floe's own reader gives the positions back.
    FLOE_ASSERT_OK_AND_ASSIGN(auto input, io_.NewInputFile(path));
    PositionDeleteIndex read;
    FLOE_ASSERT_OK(ReadDeletionVector(*input, at, length, read));
    EXPECT_EQ(read.cardinality(), static_cast<int64_t>(positions.size()));
    for (int64_t p : positions) EXPECT_TRUE(read.Contains(p)) << p;

#ifdef FLOE_HAVE_CROARING
    const std::string vector = body.substr(4);
    Roaring64Map decoded = Roaring64Map::read(vector.data(), true);
    EXPECT_EQ(decoded.getSizeInBytes(true), vector.size());
    std::vector<uint64_t> theirs(decoded.cardinality());
    decoded.toUint64Array(theirs.data());
    EXPECT_EQ(std::vector<int64_t>(theirs.begin(), theirs.end()),
              std::vector<int64_t>(positions.begin(), positions.end()));
#endif
  }
  FLOE_ASSERT_OK_AND_ASSIGN(auto input, io_.NewInputFile(path));
  FLOE_ASSERT_OK_AND_ASSIGN(std::vector<PuffinBlob> listed, ReadPuffinBlobs(*input));
  ASSERT_EQ(listed.size(), 2u);
  EXPECT_EQ(listed[1].properties["cardinality"], "1");
#ifndef FLOE_HAVE_CROARING
  GTEST_SKIP() << "CRoaring (libroaring-dev) not installed: the bitmaps were checked by floe's "
                  "decoder and the layout only";
#endif
}

TEST_F(DeletionVectorWriterTest, NoDeletesWriteNoFile) {
  EXPECT_TRUE(WriteVectors({}).empty());
  EXPECT_TRUE(std::filesystem::is_empty(dir_.path()));
}

}  // namespace
}  // namespace floe::table
