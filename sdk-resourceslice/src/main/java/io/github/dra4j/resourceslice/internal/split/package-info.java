/**
 * Automatic splitting of a flat device list into ResourceSlices within the API limits.
 */
package io.github.dra4j.resourceslice.internal.split;
