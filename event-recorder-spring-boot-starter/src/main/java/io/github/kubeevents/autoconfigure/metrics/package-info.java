/**
 * Auto-configuration of the recorder's Micrometer meters.
 *
 * <p><b>Internal although public</b> (Spring Boot needs the classes to be): refer to them only to exclude or import
 * the meters' auto-configuration; the {@code management.*} property names are API.
 */
@NullMarked
package io.github.kubeevents.autoconfigure.metrics;

import org.jspecify.annotations.NullMarked;
