/**
 * The building blocks of every rule: field paths, errors worded as the API server words them,
 * values printed as its messages print them, and its checks of lists, sets and maps. Internal.
 */
package io.github.dra4j.resourceapi.internal.field;
