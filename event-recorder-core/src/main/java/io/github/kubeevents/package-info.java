/**
 * The event recorder: {@link io.github.kubeevents.EventRecorder} and {@link io.github.kubeevents.ObjectRecorder}
 * over {@link io.github.kubeevents.InvolvedObject}, the {@link io.github.kubeevents.EventBroadcaster} that
 * distributes recorded events to sinks and other subscribers, and {@link io.github.kubeevents.FakeEventRecorder}
 * for tests.
 *
 * <p><b>API and SPI.</b> The public types of this package are the library's API, kept compatible within a major
 * version (semantic versioning from 1.0.0). {@link io.github.kubeevents.EventRecorder},
 * {@link io.github.kubeevents.EventHandler} and {@link io.github.kubeevents.InvolvedObject.Adapter} are also SPI:
 * applications implement them, and a minor version adds methods to them only as {@code default} methods. Records
 * (such as {@link io.github.kubeevents.RecordedEvent}) may gain components in a minor version; their canonical
 * constructors are for the library and for tests. Every other type of the package is package-private.
 */
@NullMarked
package io.github.kubeevents;

import org.jspecify.annotations.NullMarked;
