/**
 * Auto-configuration of the {@code kubeevents} Actuator endpoint and its {@code management.endpoint.kubeevents.*}
 * properties.
 *
 * <p><b>Internal although public</b> (Spring Boot needs the classes to be): refer to them only to exclude or import
 * the endpoint's auto-configuration; the {@code management.*} property names are API.
 */
@NullMarked
package io.github.kubeevents.autoconfigure.endpoint;

import org.jspecify.annotations.NullMarked;
