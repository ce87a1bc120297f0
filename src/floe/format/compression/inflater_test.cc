#include "floe/format/compression/inflater.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "floe/format/compression/codec.h"
#include "floe/testing/testing.h"

namespace floe::compression {
namespace {

std::vector<std::byte> Sample(size_t size, unsigned seed) {
  std::mt19937 rng(seed);
  const std::string words[] = {"entry ", "bound ", "\x00\x7f ", "s3://bucket/", "0123456789 "};
  std::string s;
  while (s.size() < size) s += words[rng() % 5];
  s.resize(size);
  auto b = std::as_bytes(std::span(s));
  return {b.begin(), b.end()};
}

std::vector<std::byte> Deflated(const std::vector<std::byte>& raw) {
  std::vector<std::byte> out;
  EXPECT_TRUE(Compress(Codec::kDeflate, raw, out).has_value());
  return out;
}

// One inflater over streams of growing and shrinking sizes gives what zlib's one-shot path gives.
TEST(InflaterTest, ReusedAcrossStreamsOfEverySize) {
  Inflater inflater;
  for (size_t size : {size_t{70000}, size_t{0}, size_t{1}, size_t{3 << 20}, size_t{100}}) {
    std::vector<std::byte> raw = Sample(size, static_cast<unsigned>(size));
    FLOE_ASSERT_OK_AND_ASSIGN(auto out, inflater.Inflate(Deflated(raw), size_t{16} << 20));
    ASSERT_EQ(out.size(), raw.size());
    EXPECT_TRUE(std::equal(out.begin(), out.end(), raw.begin())) << size;
  }
}

TEST(InflaterTest, LimitIsExactAndEnforced) {
  std::vector<std::byte> raw = Sample(200000, 7);
  std::vector<std::byte> deflated = Deflated(raw);
  Inflater inflater;
  FLOE_ASSERT_OK_AND_ASSIGN(auto exact, inflater.Inflate(deflated, raw.size()));
  EXPECT_EQ(exact.size(), raw.size());
  auto over = inflater.Inflate(deflated, raw.size() - 1);
  ASSERT_FALSE(over.has_value());
  EXPECT_EQ(over.error().kind(), ErrorKind::kResourceExhausted);
  // The buffer grown for the earlier call does not lift a smaller limit.
  Inflater small;
  FLOE_ASSERT_OK(small.Inflate(deflated, raw.size()));
  EXPECT_FALSE(small.Inflate(deflated, 1000).has_value());
}

TEST(InflaterTest, TruncatedAndCorruptStreamsAreErrors) {
  std::vector<std::byte> deflated = Deflated(Sample(50000, 3));
  Inflater inflater;
  auto truncated = inflater.Inflate(std::span(deflated).first(deflated.size() / 2), 1 << 20);
  ASSERT_FALSE(truncated.has_value());
  EXPECT_EQ(truncated.error().kind(), ErrorKind::kCorruptData);
  std::vector<std::byte> garbage(64, std::byte{0xFF});
  auto corrupt = inflater.Inflate(garbage, 1 << 20);
  ASSERT_FALSE(corrupt.has_value());
  EXPECT_EQ(corrupt.error().kind(), ErrorKind::kCorruptData);
  // And the inflater still works after errors.
  std::vector<std::byte> raw = Sample(1000, 9);
  FLOE_ASSERT_OK_AND_ASSIGN(auto ok, inflater.Inflate(Deflated(raw), 1 << 20));
  EXPECT_EQ(ok.size(), raw.size());
}

}  // namespace
}  // namespace floe::compression
