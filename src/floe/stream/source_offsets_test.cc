#include "floe/stream/source_offsets.h"

#include <gtest/gtest.h>

#include "floe/testing/testing.h"

namespace floe::stream {
namespace {

TEST(SourceOffsetsTest, TextFormsRoundTrip) {
  NamedOffsets offsets = {{"events:0", 42}, {"events:1", 0}, {"other.topic:12", 7}};
  EXPECT_EQ(EncodeOffsets(offsets), "events:0:42,events:1:0,other.topic:12:7");
  FLOE_ASSERT_OK_AND_ASSIGN(NamedOffsets parsed, ParseOffsets(EncodeOffsets(offsets)));
  EXPECT_EQ(parsed, offsets);

  OffsetRanges ranges = {{"events:0", {.from = 42, .to = 50}}, {"events:3", {.to = 9}}};
  EXPECT_EQ(EncodeRanges(ranges), "ranges:events:0=42..50,events:3=..9");
  EXPECT_TRUE(IsRanges(EncodeRanges(ranges)));
  EXPECT_FALSE(IsRanges("events:0:42"));
  FLOE_ASSERT_OK_AND_ASSIGN(OffsetRanges back, ParseRanges(EncodeRanges(ranges)));
  EXPECT_EQ(back, ranges);

  for (std::string_view bad : {"events", "events:x", ":3", "events:0:-1"}) {
    EXPECT_EQ(ParseOffsets(bad).error().kind(), ErrorKind::kCorruptData) << bad;
  }
  for (std::string_view bad : {"events:0=1..2", "ranges:events:0=1", "ranges:=1..2",
                               "ranges:e:0=a..2", "ranges:e:0=1..", "ranges:e:0=..2..x"}) {
    EXPECT_EQ(ParseRanges(bad).error().kind(), ErrorKind::kCorruptData) << bad;
  }
}

TEST(SourceOffsetsTest, RangesApplyOnlyWhereTheTableStands) {
  NamedOffsets committed = {{"t:0", 10}, {"t:1", 20}};
  // t:2 was never committed: its range starts from none.
  FLOE_ASSERT_OK(
      ApplyRanges(committed, {{"t:0", {.from = 10, .to = 15}}, {"t:2", {.to = 4}}}, "k"));
  EXPECT_EQ(committed, (NamedOffsets{{"t:0", 15}, {"t:1", 20}, {"t:2", 4}}));

  // Another process moved t:1 on: the whole commit is fenced and nothing changes.
  Status fenced = ApplyRanges(
      committed, {{"t:0", {.from = 15, .to = 30}}, {"t:1", {.from = 18, .to = 25}}}, "k");
  ASSERT_FALSE(fenced);
  EXPECT_EQ(fenced.error().kind(), ErrorKind::kCommitFailed);
  EXPECT_NE(fenced.error().message().find("partition t:1 is committed up to offset 20"),
            std::string::npos)
      << fenced.error().message();
  EXPECT_EQ(committed, (NamedOffsets{{"t:0", 15}, {"t:1", 20}, {"t:2", 4}}));
  // A range from none over a committed partition is fenced too.
  EXPECT_FALSE(ApplyRanges(committed, {{"t:2", {.to = 9}}}, "k"));
}

TEST(SourceOffsetsTest, ChainedRangesMustContinueEachOther) {
  OffsetRanges ranges = {{"t:0", {.from = 0, .to = 5}}};
  FLOE_ASSERT_OK(ChainRanges(ranges, {{"t:0", {.from = 5, .to = 8}}, {"t:1", {.to = 2}}}, "k"));
  EXPECT_EQ(ranges, (OffsetRanges{{"t:0", {.from = 0, .to = 8}}, {"t:1", {.to = 2}}}));
  // Either order.
  FLOE_ASSERT_OK(ChainRanges(ranges, {{"t:1", {.from = 2, .to = 3}}}, "k"));
  EXPECT_EQ(ranges.at("t:1"), (OffsetRange{.to = 3}));
  // Two readers that both read t:0 from 0: the same records twice.
  Status twice = ChainRanges(ranges, {{"t:0", {.from = 0, .to = 4}}}, "k");
  ASSERT_FALSE(twice);
  EXPECT_EQ(twice.error().kind(), ErrorKind::kCommitFailed);
}

}  // namespace
}  // namespace floe::stream
