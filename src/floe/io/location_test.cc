#include "floe/io/location.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "floe/testing/testing.h"

namespace floe::io {
namespace {

TEST(LocationTest, Scheme) {
  EXPECT_EQ(LocationScheme("/warehouse/t"), "");
  EXPECT_EQ(LocationScheme("warehouse/t"), "");
  EXPECT_EQ(LocationScheme("file:/warehouse/t"), "file");
  EXPECT_EQ(LocationScheme("FILE:/warehouse/t"), "FILE");
  EXPECT_EQ(LocationScheme("file:///warehouse/t"), "file");
  EXPECT_EQ(LocationScheme("s3://bucket/t"), "s3");
  EXPECT_EQ(LocationScheme("s3a://bucket/t"), "s3a");
  // A colon in a relative path or after a slash is not a scheme.
  EXPECT_EQ(LocationScheme("part:1/data"), "");
  EXPECT_EQ(LocationScheme("/a/b:c"), "");
  EXPECT_EQ(LocationScheme(":x"), "");
  EXPECT_EQ(LocationScheme("1s://x"), "");
}

TEST(LocationTest, ToLocalPath) {
  for (std::string_view location : {"/tmp/w/t", "file:/tmp/w/t", "file:///tmp/w/t",
                                    "file://localhost/tmp/w/t", "File://LOCALHOST/tmp/w/t"}) {
    FLOE_ASSERT_OK_AND_ASSIGN(std::string path, ToLocalPath(location));
    EXPECT_EQ(path, "/tmp/w/t") << location;
  }
  FLOE_ASSERT_OK_AND_ASSIGN(std::string relative, ToLocalPath("data/x.parquet"));
  EXPECT_EQ(relative, "data/x.parquet");
  // Percent escapes stay as written, as Hadoop's Path keeps them.
  FLOE_ASSERT_OK_AND_ASSIGN(std::string escaped, ToLocalPath("file:/tmp/a%20b"));
  EXPECT_EQ(escaped, "/tmp/a%20b");

  auto s3 = ToLocalPath("s3://bucket/t");
  ASSERT_FALSE(s3.has_value());
  EXPECT_EQ(s3.error().kind(), ErrorKind::kUnsupported);
  EXPECT_NE(s3.error().message().find("s3://bucket/t"), std::string::npos);
  auto remote = ToLocalPath("file://otherhost/t");
  ASSERT_FALSE(remote.has_value());
  EXPECT_EQ(remote.error().kind(), ErrorKind::kUnsupported);
  EXPECT_NE(remote.error().message().find("otherhost"), std::string::npos);
  EXPECT_EQ(ToLocalPath("").error().kind(), ErrorKind::kInvalidArgument);
  EXPECT_EQ(ToLocalPath("file://").error().kind(), ErrorKind::kInvalidArgument);
}

TEST(LocationTest, Absolute) {
  const std::string cwd = std::filesystem::current_path().string();
  EXPECT_EQ(AbsoluteLocation("warehouse"), cwd + "/warehouse");
  EXPECT_EQ(AbsoluteLocation("./warehouse/db/"), cwd + "/warehouse/db");
  EXPECT_EQ(AbsoluteLocation("../wh"),
            (std::filesystem::current_path().parent_path() / "wh").string());
  EXPECT_EQ(AbsoluteLocation("/data//wh/"), "/data/wh");
  EXPECT_EQ(AbsoluteLocation("file:/data/wh"), "file:/data/wh");
  EXPECT_EQ(AbsoluteLocation("s3://bucket/wh"), "s3://bucket/wh");
  EXPECT_EQ(AbsoluteLocation(""), "");
}

TEST(LocationTest, Normalize) {
  EXPECT_EQ(NormalizeLocation("/a//b/./c/"), "/a/b/c");
  EXPECT_EQ(NormalizeLocation("/a/b/../c"), "/a/c");
  EXPECT_EQ(NormalizeLocation("/../a"), "/a");
  EXPECT_EQ(NormalizeLocation("/"), "/");
  EXPECT_EQ(NormalizeLocation("//"), "/");
  EXPECT_EQ(NormalizeLocation("a/./b//"), "a/b");
  EXPECT_EQ(NormalizeLocation("../a"), "../a");
  EXPECT_EQ(NormalizeLocation("a/.."), ".");
  EXPECT_EQ(NormalizeLocation(""), "");
  EXPECT_EQ(NormalizeLocation("s3://bucket//db/t/"), "s3://bucket/db/t");
  EXPECT_EQ(NormalizeLocation("s3://bucket"), "s3://bucket/");
  EXPECT_EQ(NormalizeLocation("file:///tmp//x"), "file:///tmp/x");
  EXPECT_EQ(NormalizeLocation("file:/tmp/./x"), "file:/tmp/x");
}

TEST(LocationTest, Join) {
  EXPECT_EQ(JoinLocation("/a", "b"), "/a/b");
  EXPECT_EQ(JoinLocation("/a/", "b"), "/a/b");
  EXPECT_EQ(JoinLocation("/a", "/b"), "/a/b");
  EXPECT_EQ(JoinLocation("/", "b"), "/b");
  EXPECT_EQ(JoinLocation("", "b"), "b");
  EXPECT_EQ(JoinLocation("s3://bucket", "db/t"), "s3://bucket/db/t");
  EXPECT_EQ(JoinLocation("file:/tmp", "m.json"), "file:/tmp/m.json");
}

TEST(LocationTest, ParentAndFileName) {
  EXPECT_EQ(ParentLocation("s3://b/t/m.json"), "s3://b/t");
  EXPECT_EQ(ParentLocation("s3://b/t"), "s3://b/");
  EXPECT_EQ(ParentLocation("s3://b/"), "");
  EXPECT_EQ(ParentLocation("s3://b"), "");
  EXPECT_EQ(ParentLocation("/a/b/"), "/a");
  EXPECT_EQ(ParentLocation("/a//b"), "/a");
  EXPECT_EQ(ParentLocation("/a"), "/");
  EXPECT_EQ(ParentLocation("/"), "");
  EXPECT_EQ(ParentLocation("a/b"), "a");
  EXPECT_EQ(ParentLocation("a"), "");
  EXPECT_EQ(ParentLocation("file:/tmp/x"), "file:/tmp");
  EXPECT_EQ(ParentLocation("file:///tmp"), "file:///");

  EXPECT_EQ(FileName("s3://b/t/m.json"), "m.json");
  EXPECT_EQ(FileName("/a/b/"), "b");
  EXPECT_EQ(FileName("a"), "a");
  EXPECT_EQ(FileName("/"), "");
  EXPECT_EQ(FileName("s3://b"), "");
  EXPECT_EQ(FileName("file:/tmp/v1.metadata.json"), "v1.metadata.json");
}

}  // namespace
}  // namespace floe::io
