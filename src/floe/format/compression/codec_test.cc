#include "floe/format/compression/codec.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <random>
#include <set>
#include <string>

#include "floe/testing/testing.h"

namespace floe::compression {
namespace {

constexpr Codec kAllCodecs[] = {Codec::kUncompressed, Codec::kDeflate, Codec::kGzip,
                                Codec::kZstd,         Codec::kSnappy,  Codec::kLz4Raw,
                                Codec::kLz4Hadoop,    Codec::kBrotli};
constexpr Codec kCompressingCodecs[] = {Codec::kDeflate, Codec::kGzip,   Codec::kZstd,
                                        Codec::kSnappy,  Codec::kLz4Raw, Codec::kLz4Hadoop,
                                        Codec::kBrotli};

std::vector<std::byte> Bytes(std::string_view s) {
  auto b = std::as_bytes(std::span(s.data(), s.size()));
  return {b.begin(), b.end()};
}

// Compressible text with some randomness, so every codec has real work to do.
std::vector<std::byte> SampleData(size_t size, unsigned seed = 1) {
  std::mt19937 rng(seed);
  std::string words[] = {"iceberg ", "manifest ", "snapshot ", "partition ", "avro ", "\x01\x02 "};
  std::string s;
  while (s.size() < size) s += words[rng() % 6];
  s.resize(size);
  return Bytes(s);
}

class CodecTest : public ::testing::TestWithParam<Codec> {};

TEST_P(CodecTest, RoundTripsThroughBothDecompressForms) {
  for (size_t size : {size_t{0}, size_t{1}, size_t{100}, size_t{70000}, size_t{1 << 20}}) {
    std::vector<std::byte> input = SampleData(size, static_cast<unsigned>(size));
    std::vector<std::byte> compressed;
    FLOE_ASSERT_OK(Compress(GetParam(), input, compressed));
    std::vector<std::byte> exact(size);
    FLOE_ASSERT_OK(DecompressInto(GetParam(), compressed, exact));
    EXPECT_EQ(exact, input) << size;
    std::vector<std::byte> grown = Bytes("prefix");
    FLOE_ASSERT_OK(Decompress(GetParam(), compressed, size, grown));
    ASSERT_EQ(grown.size(), size + 6);
    EXPECT_TRUE(std::equal(input.begin(), input.end(), grown.begin() + 6)) << size;
  }
}

// The bound holds for highly compressible and for random data, and is exact where the codec
// records the size.
TEST_P(CodecTest, MaxDecompressedSizeBoundsTheOutput) {
  std::mt19937 rng(7);
  std::vector<std::byte> noise(10000);
  for (std::byte& b : noise) b = static_cast<std::byte>(rng());
  for (const std::vector<std::byte>& input :
       {SampleData(100000), std::vector<std::byte>(1 << 20, std::byte{0}), noise}) {
    std::vector<std::byte> compressed;
    FLOE_ASSERT_OK(Compress(GetParam(), input, compressed));
    const size_t bound = MaxDecompressedSize(GetParam(), compressed);
    EXPECT_GE(bound, input.size()) << CodecName(GetParam());
    if (GetParam() == Codec::kSnappy || GetParam() == Codec::kZstd ||
        GetParam() == Codec::kUncompressed) {
      EXPECT_EQ(bound, input.size()) << CodecName(GetParam());
    }
  }
}

TEST_P(CodecTest, WrongExpectedSizeIsAnError) {
  std::vector<std::byte> input = SampleData(5000);
  std::vector<std::byte> compressed;
  FLOE_ASSERT_OK(Compress(GetParam(), input, compressed));
  std::vector<std::byte> smaller(4999);
  auto status = DecompressInto(GetParam(), compressed, smaller);
  ASSERT_FALSE(status.has_value());
  EXPECT_EQ(status.error().kind(), ErrorKind::kCorruptData) << status.error().ToString();
  std::vector<std::byte> larger(5001);
  status = DecompressInto(GetParam(), compressed, larger);
  ASSERT_FALSE(status.has_value());
  EXPECT_EQ(status.error().kind(), ErrorKind::kCorruptData) << status.error().ToString();
}

TEST_P(CodecTest, LimitIsEnforced) {
  std::vector<std::byte> input = SampleData(300000);
  std::vector<std::byte> compressed;
  FLOE_ASSERT_OK(Compress(GetParam(), input, compressed));
  std::vector<std::byte> out = Bytes("kept");
  auto status = Decompress(GetParam(), compressed, 299999, out);
  ASSERT_FALSE(status.has_value());
  EXPECT_LE(out.capacity(), size_t{4 + 299999});  // the prefix plus the limit, never more
  EXPECT_EQ(out, Bytes("kept"));                  // nothing of the failed attempt stays behind
}

TEST_P(CodecTest, TruncatedAndCorruptInputFailsCleanly) {
  std::vector<std::byte> input = SampleData(20000);
  std::vector<std::byte> compressed;
  FLOE_ASSERT_OK(Compress(GetParam(), input, compressed));
  // Every truncation either fails or, for codecs without an end marker, yields different bytes; it
  // never crashes or overruns (the sanitizer build checks the latter).
  for (size_t keep : {size_t{0}, size_t{1}, compressed.size() / 2, compressed.size() - 1}) {
    std::span<const std::byte> cut(compressed.data(), keep);
    std::vector<std::byte> exact(input.size());
    EXPECT_FALSE(DecompressInto(GetParam(), cut, exact).has_value()) << keep;
    std::vector<std::byte> grown;
    auto status = Decompress(GetParam(), cut, 1 << 20, grown);
    EXPECT_TRUE(!status.has_value() || grown != input) << keep;
  }
  std::mt19937 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<std::byte> damaged = compressed;
    for (int i = 0; i < 4; ++i) damaged[rng() % damaged.size()] = std::byte(rng() & 0xFF);
    std::vector<std::byte> exact(input.size());
    (void)DecompressInto(GetParam(), damaged, exact);
    std::vector<std::byte> grown;
    (void)Decompress(GetParam(), damaged, 1 << 20, grown);
    EXPECT_LE(grown.size(), size_t{1 << 20});
  }
}

INSTANTIATE_TEST_SUITE_P(Compressing, CodecTest, ::testing::ValuesIn(kCompressingCodecs),
                         [](const auto& info) { return std::string(CodecName(info.param)); });

TEST(CodecNames, AreDistinct) {
  std::set<std::string_view> names;
  for (Codec codec : kAllCodecs) names.insert(CodecName(codec));
  EXPECT_EQ(names.size(), std::size(kAllCodecs));
}

TEST(Uncompressed, ChecksSize) {
  std::vector<std::byte> input = Bytes("abc");
  std::vector<std::byte> out(4);
  EXPECT_FALSE(DecompressInto(Codec::kUncompressed, input, out).has_value());
  std::vector<std::byte> grown;
  EXPECT_FALSE(Decompress(Codec::kUncompressed, input, 2, grown).has_value());
}

// The stream gzip(1) writes (via zlib's gzip wrapper here) and two members back to back, as some
// Parquet writers produce; deflate must read a raw stream made by zlib's own compress2 minus its
// header, the way Python's Avro writer makes its blocks.
std::vector<std::byte> ZlibGzip(std::string_view text) {
  z_stream zs{};
  EXPECT_EQ(deflateInit2(&zs, 6, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY), Z_OK);
  std::vector<std::byte> out(deflateBound(&zs, text.size()));
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  zs.avail_in = static_cast<uInt>(text.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&zs, Z_FINISH), Z_STREAM_END);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

TEST(Gzip, ConcatenatedMembers) {
  std::vector<std::byte> data = ZlibGzip("hello, ");
  std::vector<std::byte> second = ZlibGzip("world");
  data.insert(data.end(), second.begin(), second.end());
  std::vector<std::byte> out;
  FLOE_ASSERT_OK(Decompress(Codec::kGzip, data, 100, out));
  EXPECT_EQ(out, Bytes("hello, world"));
  std::vector<std::byte> exact(12);
  FLOE_ASSERT_OK(DecompressInto(Codec::kGzip, data, exact));
  EXPECT_EQ(exact, Bytes("hello, world"));
}

TEST(Deflate, ReadsZlibStreamWithoutHeaderAndIgnoresTrailer) {
  std::string text(5000, 'x');
  uLongf size = compressBound(text.size());
  std::vector<std::byte> zlib(size);
  ASSERT_EQ(compress2(reinterpret_cast<Bytef*>(zlib.data()), &size,
                      reinterpret_cast<const Bytef*>(text.data()), text.size(), 9),
            Z_OK);
  // Drop the 2-byte zlib header and the last byte of the Adler-32 trailer, as Python's avro does.
  std::span<const std::byte> raw(zlib.data() + 2, size - 3);
  std::vector<std::byte> out;
  FLOE_ASSERT_OK(Decompress(Codec::kDeflate, raw, 10000, out));
  EXPECT_EQ(out, Bytes(text));
}

TEST(Lz4Hadoop, ReadsBareLz4BlockToo) {
  std::vector<std::byte> input = SampleData(3000);
  std::vector<std::byte> raw;
  FLOE_ASSERT_OK(Compress(Codec::kLz4Raw, input, raw));
  std::vector<std::byte> out(3000);
  FLOE_ASSERT_OK(DecompressInto(Codec::kLz4Hadoop, raw, out));
  EXPECT_EQ(out, input);
}

TEST(Lz4Hadoop, FrameLayout) {
  std::vector<std::byte> input = SampleData(1000);
  std::vector<std::byte> framed;
  FLOE_ASSERT_OK(Compress(Codec::kLz4Hadoop, input, framed));
  ASSERT_GE(framed.size(), 8u);
  // Big-endian uncompressed size, then the compressed size of what follows.
  EXPECT_EQ(framed[0], std::byte{0});
  EXPECT_EQ(framed[2], std::byte{0x03});
  EXPECT_EQ(framed[3], std::byte{0xE8});
  uint32_t compressed = (uint32_t(framed[4]) << 24) | (uint32_t(framed[5]) << 16) |
                        (uint32_t(framed[6]) << 8) | uint32_t(framed[7]);
  EXPECT_EQ(compressed, framed.size() - 8);
}

TEST(Zstd, Levels) {
  std::vector<std::byte> input = SampleData(100000);
  std::vector<std::byte> fast;
  std::vector<std::byte> strong;
  FLOE_ASSERT_OK(Compress(Codec::kZstd, input, fast, 1));
  FLOE_ASSERT_OK(Compress(Codec::kZstd, input, strong, 19));
  EXPECT_LT(strong.size(), fast.size());
  EXPECT_FALSE(Compress(Codec::kZstd, input, fast, 99).has_value());
  std::vector<std::byte> both = fast;
  both.insert(both.end(), strong.begin(), strong.end());
  std::vector<std::byte> out;
  FLOE_ASSERT_OK(Decompress(Codec::kZstd, both, 300000, out));
  EXPECT_EQ(out.size(), 200000u);
}

}  // namespace
}  // namespace floe::compression
