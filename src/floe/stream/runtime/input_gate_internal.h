#pragma once

// The inbox of one subtask: one bounded queue per input channel (one channel per upstream subtask
// of every input edge) and an unbounded mailbox of actions to run on the subtask's thread (split
// assignments, checkpoint triggers and notifications). One lock and two condition variables cover
// all of them, so a subtask waits for "data on any readable channel, or mail" in one place.
//
// Backpressure: Push blocks while its channel holds `capacity` elements. Cancel() wakes every
// waiter; from then on Push and Take fail with kCancelled, so no thread stays blocked on a job
// that is going away.

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <vector>

#include "floe/stream/stream_element.h"
#include "floe/util/error.h"

namespace floe::stream::runtime {

using Mail = std::function<Status()>;

class InputGate {
 public:
  InputGate(int num_channels, int capacity);

  int num_channels() const { return static_cast<int>(queues_.size()); }

  Status Push(int channel, StreamElement element);
  void PostMail(Mail mail);
  void Cancel();

  // What Take found: mail first (it is never held up by data), then an element of a channel that
  // is not blocked, in channel order after the last one read (so that no channel starves).
  struct Next {
    std::optional<Mail> mail;
    int channel = -1;
    std::optional<StreamElement> element;
  };
  // Waits for mail or an element on a channel with blocked[channel] false, at most `timeout` when
  // given (then returns an empty Next). Fails with kCancelled once the gate is cancelled.
  Result<Next> Take(const std::vector<bool>& blocked,
                    std::optional<std::chrono::milliseconds> timeout = std::nullopt);

  // The most elements any channel has held at once (for tests of backpressure).
  int max_queued() const;

 private:
  bool Ready(const std::vector<bool>& blocked) const;

  mutable std::mutex mutex_;
  std::condition_variable consumer_cv_;
  std::condition_variable producer_cv_;
  std::vector<std::deque<StreamElement>> queues_;
  std::deque<Mail> mail_;
  int capacity_;
  int next_channel_ = 0;
  int max_queued_ = 0;
  bool cancelled_ = false;
};

}  // namespace floe::stream::runtime
