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

// The catalogue check value (CRC-32/ISCSI) and the test vectors of RFC 3720, appendix B.4.
TEST(Crc32CTest, KnownVectors) {
  EXPECT_EQ(Crc32C(""), 0u);
  EXPECT_EQ(Crc32C("123456789"), 0xE3069283u);
  EXPECT_EQ(Crc32C(std::string(32, '\0')), 0x8A9136AAu);
  EXPECT_EQ(Crc32C(std::string(32, '\xFF')), 0x62A8AB43u);
  std::string ascending;
  std::string descending;
  for (int i = 0; i < 32; ++i) {
    ascending.push_back(static_cast<char>(i));
    descending.push_back(static_cast<char>(31 - i));
  }
  EXPECT_EQ(Crc32C(ascending), 0x46DD794Eu);
  EXPECT_EQ(Crc32C(descending), 0x113FDB5Cu);
}

TEST(Crc32CTest, IncrementalEqualsWhole) {
  std::string data;
  for (int i = 0; i < 1000; ++i) data.push_back(static_cast<char>(i * 31 + 7));
  uint32_t whole = Crc32C(data);
  for (size_t split : {0u, 1u, 7u, 8u, 9u, 500u, 999u, 1000u}) {
    std::string_view view(data);
    EXPECT_EQ(Crc32C(view.substr(split), Crc32C(view.substr(0, split))), whole) << split;
  }
}

}  // namespace
}  // namespace floe
