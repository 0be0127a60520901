/**
 * Test auto-configuration for applications using the kube-events starter: {@link AutoConfigureFakeEventRecorder}
 * replaces the recorder with a {@link io.github.kubeevents.FakeEventRecorder} that writes nowhere.
 *
 * <p>{@link AutoConfigureFakeEventRecorder} is API. {@link FakeEventRecorderAutoConfiguration} and
 * {@link FakeEventRecorderTestExecutionListener} are internal although public (Spring needs them to be): the
 * annotation applies them.
 */
@NullMarked
package io.github.kubeevents.test.autoconfigure;

import org.jspecify.annotations.NullMarked;
