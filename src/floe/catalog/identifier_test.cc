#include "floe/catalog/identifier.h"

#include <gtest/gtest.h>

#include "floe/testing/testing.h"

namespace floe::catalog {
namespace {

TEST(IdentifierTest, ParsesAndPrintsDottedNames) {
  FLOE_ASSERT_OK_AND_ASSIGN(TableIdentifier ident, TableIdentifier::Parse("a.b.events"));
  EXPECT_EQ(ident.ns.levels, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(ident.name, "events");
  EXPECT_EQ(ident.ToString(), "a.b.events");
  FLOE_ASSERT_OK_AND_ASSIGN(Namespace ns, Namespace::Parse("db"));
  EXPECT_EQ(ns.ToString(), "db");
}

TEST(IdentifierTest, RejectsNamesThatWouldEscapeTheWarehouse) {
  const std::string_view bad_names[] = {"..",   ".",         "",          "a/b",
                                        "a\\b", {"a\0b", 3}, "tab\there", "del\x7f"};
  for (std::string_view bad : bad_names) {
    Status status = ValidateIdentifierPart(bad, "table name");
    ASSERT_FALSE(status.has_value()) << bad;
    EXPECT_EQ(status.error().kind(), ErrorKind::kInvalidArgument);
  }
  EXPECT_FALSE(TableIdentifier::Parse("db..t").has_value());
  EXPECT_FALSE(TableIdentifier::Parse("table").has_value());
  EXPECT_TRUE(ValidateIdentifierPart("événements-2024_x", "table name").has_value());
}

}  // namespace
}  // namespace floe::catalog
