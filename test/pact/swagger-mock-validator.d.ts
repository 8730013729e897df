// The part of @pactflow/swagger-mock-validator's API the agreement test calls: the package ships JavaScript without
// its declarations (its package.json names lib/api-types.d.ts, which the published tarball lacks).
declare module '@pactflow/swagger-mock-validator' {
  interface ValidationOutcome {
    code: string;
    message: string;
    type: 'error' | 'warning';
  }
  interface ValidationResult {
    success: boolean;
    failureReason?: string;
    errors: ValidationOutcome[];
    warnings: ValidationOutcome[];
  }
  interface SwaggerMockValidator {
    validate(options: { specPathOrUrl: string; mockPathOrUrl: string }): Promise<ValidationResult>;
  }
  export const SwaggerMockValidatorFactory: { create(auth?: string): SwaggerMockValidator };
}
