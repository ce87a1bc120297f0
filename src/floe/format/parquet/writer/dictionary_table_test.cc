#include <gtest/gtest.h>

#include <map>
#include <string>

#include "floe/format/parquet/writer/dictionary_table_internal.h"

namespace floe::parquet {
namespace {

// Values of every length around the short-value words (0..40 bytes), differing in one byte at
// each position, and with embedded zero bytes: each distinct value gets the next index in
// first-seen order, as a std::map keyed by the bytes says.
TEST(BytesDictionaryTable, GivesEachDistinctValueItsFirstSeenIndex) {
  BytesDictionaryTable table;
  std::map<std::string, uint32_t> expected;
  for (int round = 0; round < 2; ++round) {
    for (size_t length = 0; length <= 40; ++length) {
      for (size_t position = 0; position <= length; ++position) {
        for (char byte : {'\0', 'x'}) {
          std::string value(length, 'a');
          if (position < length) value[position] = byte;
          auto [it, added] = expected.emplace(value, static_cast<uint32_t>(expected.size()));
          bool inserted;
          uint32_t index = table.Insert(value, inserted);
          EXPECT_EQ(inserted, added) << length << " " << position;
          EXPECT_EQ(index, it->second) << length << " " << position;
          EXPECT_EQ(table.value(index), value);
        }
      }
    }
  }
  EXPECT_EQ(table.size(), expected.size());
  table.Clear();
  bool inserted;
  EXPECT_EQ(table.Insert("a", inserted), 0u);
  EXPECT_TRUE(inserted);
}

}  // namespace
}  // namespace floe::parquet
