import multipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { EngineId, ReportParams, ShareTokenQuery } from '#contract/index.js';
import { OpenAcrError, OpenAcrTooLargeError } from '#reports/vpat/openacr.js';
import { NotFoundError, TooManyRequestsError } from '../http-errors.js';
import { docxMediaType, ErrorResponse, fileResponse, textResponse } from '../plugins/openapi.js';
import { assertReadable } from '../scans/access.js';
import { reportNotFound } from '../scans/report-model.js';
import * as service from './service.js';

export interface DocumentRoutesOptions {
  deps: service.DocumentServiceDeps;
  /** PUBLIC_URL: the statement's status link points here, never at the request's Host. */
  publicUrl: string;
  /** Statement PDFs one address may print per window; each holds a browser tab. */
  pdfRateLimit?: PdfRateLimit;
  /** OpenACR files one address may upload per window, both routes together. */
  uploadRateLimit?: UploadRateLimit;
}

export interface PdfRateLimit {
  max: number;
  timeWindowMs: number;
}
export type UploadRateLimit = PdfRateLimit;

/** As many as scan starts: a PDF costs a browser tab for about as long as a small scan. */
export const defaultPdfRateLimit: PdfRateLimit = { max: 20, timeWindowMs: 60_000 };

/**
 * A person checks a file, then makes its VPAT: two uploads, a few times while fixing a report.
 * Each is read and checked on the server (capped by `openAcrLimits`), anonymously.
 */
export const defaultUploadRateLimit: UploadRateLimit = { max: 10, timeWindowMs: 60_000 };

/** Spec §9: the VPAT upload limit. */
export const uploadLimitBytes = 10 * 1024 * 1024;

/**
 * Every document of a scan is its reader's (access.ts): the owner, anyone for a public scan, or
 * the holder of its share link (`?share=`); anyone else gets the 404 of a missing scan.
 */
async function assertCanRead(
  deps: service.DocumentServiceDeps,
  request: FastifyRequest,
  scanId: string,
  share: string | undefined,
) {
  try {
    await assertReadable(deps.db, request.caller, scanId, share);
  } catch (error) {
    // The documents' own 404, the same as for a scan that does not exist.
    throw error instanceof NotFoundError ? new NotFoundError(reportNotFound) : error;
  }
}

const ScanIdBody = z.strictObject({ scanId: z.uuid('Scan id must be a UUID') });
const ExportParams = ReportParams.extend({ format: z.enum(service.exportFormats) });
const RawParams = ReportParams.extend({ engine: EngineId });

/** Upload problems in the spec's words (§5 "VPAT upload"), answered as `{error}` like §7 says. */
class UploadError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}
const invalidType = () =>
  new UploadError(415, 'Invalid file type: Please select a JSON file containing OpenACR data.');
const tooLarge = () => new UploadError(413, 'File too large: File size must be less than 10MB.');

function sendFile(reply: FastifyReply, file: service.FileAnswer, disposition = 'attachment') {
  return reply
    .header('content-type', file.contentType)
    .header('content-disposition', `${disposition}; filename="${file.fileName}"`)
    .header('cache-control', 'private, no-store')
    .header('x-content-type-options', 'nosniff')
    .send(file.body);
}

/** The uploaded OpenACR file of field `openacr`: .json (or OpenACR's own YAML), under 10 MB. */
async function readUpload(request: FastifyRequest): Promise<{ bytes: Buffer; fileName: string }> {
  if (!request.isMultipart()) {
    throw new UploadError(
      400,
      'No file uploaded: send the OpenACR file as multipart/form-data in the field "openacr".',
    );
  }
  let file;
  try {
    file = await request.file();
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    throw error;
  }
  if (!file || file.fieldname !== 'openacr') {
    file?.file.resume();
    throw new UploadError(400, 'No file uploaded: send the OpenACR file in the field "openacr".');
  }
  if (!/\.(json|ya?ml)$/i.test(file.filename)) {
    file.file.resume();
    throw invalidType();
  }
  try {
    return { bytes: await file.toBuffer(), fileName: file.filename };
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    throw error;
  }
}

async function withUploadErrors(reply: FastifyReply, work: () => Promise<unknown>) {
  try {
    return await work();
  } catch (error) {
    if (error instanceof UploadError) {
      return reply.status(error.statusCode).send({ error: error.message, message: error.message });
    }
    if (error instanceof OpenAcrTooLargeError) {
      return reply.status(413).send({ error: error.message, message: error.message });
    }
    if (error instanceof OpenAcrError) {
      return reply
        .status(422)
        .send({ error: error.message, message: error.message, path: error.path ?? null });
    }
    throw error;
  }
}

/**
 * Documents of a scan (HTML report, exports, raw output, statement PDF, VPAT Word files) and the
 * OpenACR tools of the VPAT generator (spec public-area §2 "Report page", "VPAT generator", §7).
 */
export const documentRoutes: FastifyPluginAsyncZod<DocumentRoutesOptions> = async (
  app,
  options,
) => {
  const { deps } = options;
  const pdfLimit = options.pdfRateLimit ?? defaultPdfRateLimit;
  const uploadLimit = options.uploadRateLimit ?? defaultUploadRateLimit;
  await app.register(multipart, {
    limits: { fileSize: uploadLimitBytes, files: 1, fields: 5, parts: 6 },
  });
  const docx = fileResponse('The Word document, as an attachment.', [docxMediaType]);

  app.get(
    '/api/html-report/:scanId',
    {
      schema: {
        operationId: 'getHtmlReport',
        summary: "A scan's report as one HTML page",
        tags: ['Reports'],
        params: ReportParams,
        querystring: ShareTokenQuery,
        response: { 200: textResponse('The report page.', 'text/html') },
      },
    },
    async (request, reply) => {
      await assertCanRead(deps, request, request.params.scanId, request.query.share);
      const html = await service.htmlReport(deps, request.params.scanId);
      return (
        reply
          .header('content-type', 'text/html; charset=utf-8')
          .header('cache-control', 'private, no-store')
          // The report is our markup around the scanned site's text: nothing in it may run.
          .header(
            'content-security-policy',
            "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'",
          )
          .send(html)
      );
    },
  );

  app.get(
    '/api/report/:scanId/statement.pdf',
    {
      config: {
        rateLimit: {
          max: pdfLimit.max,
          timeWindow: pdfLimit.timeWindowMs,
          groupId: 'statement-pdf',
          errorResponseBuilder: (_request, context) =>
            new TooManyRequestsError(
              `Too many statements printed from your address; try again in ${context.after}.`,
            ),
        },
      },
      schema: {
        operationId: 'getStatementPdf',
        summary: "The accessibility statement of a scan's site, as a PDF",
        tags: ['Reports'],
        params: ReportParams,
        querystring: ShareTokenQuery,
        response: { 200: fileResponse('The statement.', ['application/pdf']) },
      },
    },
    async (request, reply) => {
      await assertCanRead(deps, request, request.params.scanId, request.query.share);
      const file = await service.statementPdf(deps, request.params.scanId, options.publicUrl);
      return sendFile(reply, file, 'inline');
    },
  );

  app.get(
    '/api/report/:scanId/export/:format',
    {
      schema: {
        operationId: 'exportScanIssues',
        summary: "A scan's issues as CSV, JSON, Markdown, SARIF or JUnit XML",
        tags: ['Reports'],
        params: ExportParams,
        querystring: ShareTokenQuery,
        response: {
          200: fileResponse('The export, as an attachment.', [
            'text/csv',
            'application/json',
            'text/markdown',
            'application/sarif+json',
            'application/xml',
          ]),
        },
      },
    },
    async (request, reply) => {
      await assertCanRead(deps, request, request.params.scanId, request.query.share);
      return sendFile(
        reply,
        await service.exportReport(deps, request.params.scanId, request.params.format),
      );
    },
  );

  app.get(
    '/api/report/:scanId/raw/:engine',
    {
      schema: {
        operationId: 'getRawEngineOutput',
        summary: "One engine's raw output for a scan",
        tags: ['Reports'],
        params: RawParams,
        querystring: ShareTokenQuery,
        response: { 200: fileResponse('The raw JSON, as an attachment.', ['application/json']) },
      },
    },
    async (request, reply) => {
      await assertCanRead(deps, request, request.params.scanId, request.query.share);
      return sendFile(
        reply,
        await service.rawEngineOutput(deps, request.params.scanId, request.params.engine),
      );
    },
  );

  app.post(
    '/api/generate-vpat-from-scan',
    {
      schema: {
        operationId: 'generateVpatFromScan',
        summary: 'A VPAT 2.4 report (Word) filled from a scan',
        tags: ['VPAT'],
        body: ScanIdBody,
        querystring: ShareTokenQuery,
        response: { 200: docx },
      },
    },
    async (request, reply) => {
      await assertCanRead(deps, request, request.body.scanId, request.query.share);
      return sendFile(
        reply,
        await service.vpatFromScan(deps, request.body.scanId, { template: false }),
      );
    },
  );

  app.post(
    '/api/fill-vpat-template',
    {
      schema: {
        operationId: 'fillVpatTemplate',
        summary: "The VPAT 2.4 template (Word) with a scan's findings, to finish by hand",
        tags: ['VPAT'],
        body: ScanIdBody,
        querystring: ShareTokenQuery,
        response: { 200: docx },
      },
    },
    async (request, reply) => {
      await assertCanRead(deps, request, request.body.scanId, request.query.share);
      return sendFile(
        reply,
        await service.vpatFromScan(deps, request.body.scanId, { template: true }),
      );
    },
  );

  const uploadConfig = {
    rateLimit: {
      max: uploadLimit.max,
      timeWindow: uploadLimit.timeWindowMs,
      groupId: 'openacr-upload',
      errorResponseBuilder: (_request: FastifyRequest, context: { after: string }) =>
        new TooManyRequestsError(
          `Too many OpenACR files uploaded from your address; try again in ${context.after}.`,
        ),
    },
    openApiBody: {
      mediaType: 'multipart/form-data',
      schema: z.object({
        openacr: z.string().meta({ format: 'binary', description: 'The .json or .yaml file.' }),
      }),
      description: 'An OpenACR report (JSON or YAML, under 10 MB) in the field `openacr`.',
    },
  };
  const uploadErrors = {
    413: ErrorResponse.meta({
      description: 'The file is 10 MB or larger, or holds more than 20,000 values.',
    }),
    415: ErrorResponse.meta({ description: 'Not a .json or .yaml file.' }),
    422: ErrorResponse.extend({ path: z.string().nullable() }).meta({
      description: 'Not a valid OpenACR report; `path` points at the first problem.',
    }),
  };
  const testOpenAcr = {
    operationId: 'checkOpenAcr',
    summary: 'Check an OpenACR file and tell what it holds',
    tags: ['VPAT'],
    response: {
      200: z.object({
        data: z.object({
          totalCriteria: z.number(),
          chaptersCount: z.number(),
          title: z.string(),
          catalog: z.string(),
        }),
      }),
      ...uploadErrors,
    },
  };
  // Both answer through `reply` (the file, or the upload's error), so the handler returns it.
  app.post(
    '/api/test-openacr',
    { schema: testOpenAcr, config: uploadConfig },
    async (request, reply) => {
      await withUploadErrors(reply, async () => {
        const { bytes, fileName } = await readUpload(request);
        const checked = service.checkUpload(bytes, fileName);
        return reply.send({
          data: {
            totalCriteria: checked.totalCriteria,
            chaptersCount: checked.chaptersCount,
            title: checked.report.title,
            catalog: checked.catalogName,
          },
        });
      });
      return reply;
    },
  );

  const generateVpat = {
    operationId: 'generateVpatFromOpenAcr',
    summary: 'A VPAT 2.4 report (Word) from an OpenACR file',
    tags: ['VPAT'],
    response: { 200: docx, ...uploadErrors },
  };
  app.post(
    '/api/generate-vpat',
    { schema: generateVpat, config: uploadConfig },
    async (request, reply) => {
      await withUploadErrors(reply, async () => {
        const { bytes, fileName } = await readUpload(request);
        return sendFile(reply, await service.vpatFromOpenAcr(bytes, fileName));
      });
      return reply;
    },
  );
};
