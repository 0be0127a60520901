/**
 * Auto-configuration of the {@code kubeevents} health indicator.
 *
 * <p><b>Internal although public</b> (Spring Boot needs the classes to be): refer to them only to exclude or import
 * the health indicator's auto-configuration; the {@code management.*} property names are API.
 */
@NullMarked
package io.github.kubeevents.autoconfigure.health;

import org.jspecify.annotations.NullMarked;
