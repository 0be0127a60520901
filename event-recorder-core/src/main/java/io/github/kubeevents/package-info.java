/**
 * The event recorder: {@link io.github.kubeevents.EventRecorder} and {@link io.github.kubeevents.ObjectRecorder}
 * over {@link io.github.kubeevents.InvolvedObject}, the {@link io.github.kubeevents.EventBroadcaster} that
 * distributes recorded events to sinks and other subscribers, and {@link io.github.kubeevents.FakeEventRecorder}
 * for tests.
 */
@NullMarked
package io.github.kubeevents;

import org.jspecify.annotations.NullMarked;
