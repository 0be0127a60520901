/**
 * Read-only views of a broadcaster, as plain records for JSON: its counters ({@link io.github.kubeevents.introspect.RecorderStats}) and its
 * caches entry by entry ({@link io.github.kubeevents.introspect.RecorderSnapshot}).
 *
 * <p><b>API, to read.</b> Applications read these records (the Actuator endpoint and the meters are built on them);
 * a minor version may add components, so their canonical constructors are for the library and for tests only.
 */
@NullMarked
package io.github.kubeevents.introspect;

import org.jspecify.annotations.NullMarked;
