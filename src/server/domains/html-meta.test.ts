import { describe, expect, it } from 'vitest';
import { metaContents } from './html-meta.js';

/** The meta-tag reader follows HTML's tokenizer where a pattern would be fooled. */
describe('metaContents', () => {
  const name = 'conformly-verification';

  it('reads double-, single- and unquoted values in any case and attribute order', () => {
    const html = `<!doctype html><html><head>
      <meta name="conformly-verification" content="a">
      <META CONTENT='b' NAME='Conformly-Verification'/>
      <meta content=c name=conformly-verification>
      <meta
        name = "conformly-verification"
        content = "d" >
    </head></html>`;
    expect(metaContents(html, name)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('decodes character references and keeps the first of two attributes with one name', () => {
    const html =
      '<meta name="conformly-verification" content="x&amp;y&#61;&#x7A;&quot;" content="ignored">';
    expect(metaContents(html, name)).toEqual(['x&y=z"']);
  });

  it('skips comments, raw-text elements, end tags and other meta tags', () => {
    const html = `<head>
      <!-- <meta name="conformly-verification" content="comment"> -->
      <script>var t = '<meta name="conformly-verification" content="script">';</script>
      <style>/* <meta name="conformly-verification" content="style"> */</style>
      <title><meta name="conformly-verification" content="title"></title>
      <textarea><meta name="conformly-verification" content="textarea"></TEXTAREA>
      </meta name="conformly-verification" content="end-tag">
      <meta name="description" content="other">
      <meta property="conformly-verification" content="property">
      <meta name="conformly-verification" content="real">
    </head>`;
    expect(metaContents(html, name)).toEqual(['real']);
  });

  it('does not read a value out of another attribute or an unfinished tag', () => {
    expect(
      metaContents('<meta data-x=\'name="conformly-verification" content="fake"\'>', name),
    ).toEqual([]);
    expect(metaContents('<meta name="conformly-verification" content="cut', name)).toEqual([]);
    expect(
      metaContents('a < b and <3 <meta name=conformly-verification content=ok>', name),
    ).toEqual(['ok']);
  });
});
