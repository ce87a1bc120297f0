#include "floe/util/crc32.h"

#include <gtest/gtest.h>

#include <string>

namespace floe {
namespace {

// The catalogue check value (CRC-32/ISO-HDLC) and values computed independently with zlib's crc32.
TEST(Crc32Test, KnownVectors) {
  EXPECT_EQ(Crc32(""), 0u);
  EXPECT_EQ(Crc32("123456789"), 0xCBF43926u);
  EXPECT_EQ(Crc32("The quick brown fox jumps over the lazy dog"), 0x414FA339u);
  EXPECT_EQ(Crc32(std::string(32, '\0')), 0x190A55ADu);
  EXPECT_EQ(Crc32(std::string(32, '\xFF')), 0xFF6CAB0Bu);
}

TEST(Crc32Test, IncrementalEqualsWhole) {
  std::string data;
  for (int i = 0; i < 1000; ++i) data.push_back(static_cast<char>(i * 31 + 7));
  uint32_t whole = Crc32(data);
  for (size_t split : {0u, 1u, 7u, 8u, 9u, 500u, 999u, 1000u}) {
    std::string_view view(data);
    EXPECT_EQ(Crc32(view.substr(split), Crc32(view.substr(0, split))), whole) << split;
  }
}

}  // namespace
}  // namespace floe
