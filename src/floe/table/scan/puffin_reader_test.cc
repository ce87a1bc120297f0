#include "floe/table/scan/puffin_reader.h"

#include <gtest/gtest.h>

#include "floe/io/local_file_io.h"
#include "floe/table/scan/roaring_bitmap.h"
#include "floe/testing/testing.h"

namespace floe::table {
namespace {

using floe::testing::ReadFileOrDie;
using floe::testing::TestDataDir;

std::span<const uint8_t> Bytes(const std::string& s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

std::vector<int64_t> Positions(const PositionDeleteIndex& index, int64_t limit) {
  std::vector<int64_t> out;
  for (int64_t p = 0; p < limit; ++p) {
    if (index.Contains(p)) out.push_back(p);
  }
  return out;
}

// The Iceberg Java fixture: its README says the vector holds positions 1, 3, 5, 7 and 9.
TEST(DeletionVector, JavaPayloadHoldsOddPositions) {
  const auto path = TestDataDir() / "iceberg-go/puffin/testdata/deletion-vector-v1-payload.bin";
  const std::string blob = ReadFileOrDie(path);
  PositionDeleteIndex index;
  FLOE_ASSERT_OK(DecodeDeletionVector(Bytes(blob), path.string(), index));
  EXPECT_EQ(Positions(index, 1000), (std::vector<int64_t>{1, 3, 5, 7, 9}));
  EXPECT_EQ(index.cardinality(), 5);
}

TEST(DeletionVector, BadChecksumAndTruncationAreErrors) {
  const auto path = TestDataDir() / "iceberg-go/puffin/testdata/deletion-vector-v1-payload.bin";
  std::string blob = ReadFileOrDie(path);
  blob[blob.size() - 1] ^= 1;
  PositionDeleteIndex index;
  auto status = DecodeDeletionVector(Bytes(blob), "dv", index);
  ASSERT_FALSE(status);
  EXPECT_NE(status.error().message().find("checksum"), std::string::npos);
  for (size_t n = 0; n + 1 < blob.size(); n += 3) {
    PositionDeleteIndex partial;
    EXPECT_FALSE(DecodeDeletionVector(Bytes(blob.substr(0, n)), "dv", partial));
  }
}

// Every deletion vector in a real Puffin file decodes to as many positions as the footer's
// cardinality property (written by Iceberg Java, iceberg-go and Spark) says.
TEST(DeletionVector, RealPuffinFilesMatchTheirCardinality) {
  io::LocalFileIO io;
  int checked = 0;
  for (const char* relative :
       {"iceberg-go/puffin/testdata/deletion-vector-v1.puffin",
        "iceberg-go/table/dv/testdata/deletes/single-blob-dv.puffin",
        "iceberg-go/table/dv/testdata/deletes/multi-blob-dv.puffin",
        "impala/testdata/data/iceberg_test/iceberg_v3/iceberg_v3_deletion_vectors/data/"
        "00000-9-08e88179-85b6-4635-8b34-94b49abc87d9-00001-deletes.puffin"}) {
    FLOE_ASSERT_OK_AND_ASSIGN(auto file, io.NewInputFile((TestDataDir() / relative).string()));
    FLOE_ASSERT_OK_AND_ASSIGN(auto blobs, ReadPuffinBlobs(*file));
    ASSERT_FALSE(blobs.empty()) << relative;
    for (const PuffinBlob& blob : blobs) {
      ASSERT_EQ(blob.type, "deletion-vector-v1");
      PositionDeleteIndex index;
      FLOE_ASSERT_OK(ReadDeletionVector(*file, blob.offset, blob.length, index));
      EXPECT_EQ(std::to_string(index.cardinality()), blob.properties.at("cardinality"))
          << relative << " at " << blob.offset;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 6);
}

// Iceberg Java's roaring fixtures: well-formed ones decode; the one with positions at the top of
// the 64-bit range is refused, since deletion vectors hold non-negative positions only.
TEST(RoaringBitmap, JavaFixtures) {
  const auto dir = TestDataDir() / "iceberg-go/table/dv/testdata/deletes";
  PositionDeleteIndex empty;
  FLOE_ASSERT_OK(DecodePortableRoaring64(Bytes(ReadFileOrDie(dir / "64mapempty.bin")), empty));
  EXPECT_TRUE(empty.empty());
  for (const char* name : {"64map32bitvals.bin", "64mapspreadvals.bin"}) {
    PositionDeleteIndex index;
    FLOE_EXPECT_OK(DecodePortableRoaring64(Bytes(ReadFileOrDie(dir / name)), index));
    EXPECT_FALSE(index.empty()) << name;
  }
  PositionDeleteIndex high;
  EXPECT_FALSE(DecodePortableRoaring64(Bytes(ReadFileOrDie(dir / "64maphighvals.bin")), high));
}

TEST(PositionDeleteIndex, RangesAndLimit) {
  PositionDeleteIndex index(200000);
  index.AddRange(65530, 65545);
  index.Add(5);
  index.Add(5);
  index.Add(300000);
  index.Add(-1);
  EXPECT_EQ(index.cardinality(), 16);
  std::vector<uint8_t> keep(20, 1);
  index.ClearDeleted(65528, 20, keep.data());
  for (int i = 0; i < 20; ++i) EXPECT_EQ(keep[i], (i >= 2 && i < 17) ? 0 : 1) << i;
}

}  // namespace
}  // namespace floe::table
