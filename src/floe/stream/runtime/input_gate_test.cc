#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "floe/stream/runtime/input_gate_internal.h"
#include "floe/testing/testing.h"

namespace floe::stream::runtime {
namespace {

int64_t IdOf(const InputGate::Next& next) {
  if (!next.element) return -1;
  const auto* barrier = std::get_if<CheckpointBarrier>(&next.element.value());
  return barrier ? barrier->checkpoint_id : -1;
}

TEST(InputGateTest, AFullChannelBlocksItsSenderOnly) {
  InputGate gate(2, 3);
  std::atomic<int> pushed = 0;
  std::thread sender([&] {
    for (int i = 0; i < 20; ++i) {
      ASSERT_TRUE(gate.Push(0, CheckpointBarrier{.checkpoint_id = i}).has_value());
      ++pushed;
    }
  });
  // The other channel never blocks on channel 0 being full.
  FLOE_ASSERT_OK(gate.Push(1, CheckpointBarrier{.checkpoint_id = 100}));
  // The fourth Push waits: however long we look, three are in.
  while (pushed.load() < 3) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(pushed.load(), 3);
  std::vector<bool> only_channel_0 = {false, true};
  for (int i = 0; i < 20; ++i) {
    FLOE_ASSERT_OK_AND_ASSIGN(InputGate::Next next, gate.Take(only_channel_0));
    EXPECT_EQ(next.channel, 0);
    EXPECT_EQ(IdOf(next), i);
  }
  sender.join();
  EXPECT_EQ(pushed.load(), 20);
  EXPECT_EQ(gate.max_queued(), 3);
  // A blocked channel keeps its data until it is read again.
  FLOE_ASSERT_OK_AND_ASSIGN(InputGate::Next empty,
                            gate.Take(only_channel_0, std::chrono::milliseconds(1)));
  EXPECT_FALSE(empty.element.has_value());
  FLOE_ASSERT_OK_AND_ASSIGN(InputGate::Next last, gate.Take({false, false}));
  EXPECT_EQ(IdOf(last), 100);
}

TEST(InputGateTest, MailGoesFirst) {
  InputGate gate(1, 4);
  FLOE_ASSERT_OK(gate.Push(0, EndOfInput{}));
  int ran = 0;
  gate.PostMail([&] {
    ++ran;
    return Status();
  });
  FLOE_ASSERT_OK_AND_ASSIGN(InputGate::Next first, gate.Take({false}));
  ASSERT_TRUE(first.mail.has_value());
  FLOE_ASSERT_OK((*first.mail)());
  EXPECT_EQ(ran, 1);
  FLOE_ASSERT_OK_AND_ASSIGN(InputGate::Next second, gate.Take({false}));
  EXPECT_FALSE(second.mail.has_value());
  EXPECT_EQ(second.channel, 0);
}

TEST(InputGateTest, CancelWakesBlockedSendersAndReceivers) {
  InputGate gate(1, 1);
  FLOE_ASSERT_OK(gate.Push(0, EndOfInput{}));
  Status sent;
  std::thread sender([&] { sent = gate.Push(0, EndOfInput{}); });
  InputGate idle(1, 1);
  Result<InputGate::Next> taken;
  std::thread receiver([&] { taken = idle.Take({false}); });
  gate.Cancel();
  idle.Cancel();
  sender.join();
  receiver.join();
  ASSERT_FALSE(sent.has_value());
  EXPECT_EQ(sent.error().kind(), ErrorKind::kCancelled);
  ASSERT_FALSE(taken.has_value());
  EXPECT_EQ(taken.error().kind(), ErrorKind::kCancelled);
}

}  // namespace
}  // namespace floe::stream::runtime
