/**
 * Read-only views of a broadcaster, as plain records for JSON: its counters ({@link io.github.kubeevents.introspect.RecorderStats}) and its
 * caches entry by entry ({@link io.github.kubeevents.introspect.RecorderSnapshot}).
 */
@NullMarked
package io.github.kubeevents.introspect;

import org.jspecify.annotations.NullMarked;
